package dev.schedlab.plugins.mmcid;

import dev.schedlab.api.DeferKind;
import dev.schedlab.api.DeferredWork;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.hook.MmCidControl;
import dev.schedlab.api.hook.TickHook;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.TaskView;

/**
 * The tick's mm_cid stage as the series changes it (hook H5).
 *
 * <p>Models: {@code task_tick_mm_cid()} still decides once per {@code MM_CID_SCAN_DELAY} per mm
 * that a scan is due for the current task's mm. With {@code short_scan} (patch 1) the scan visits
 * the concurrency IDs in use instead of every possible CPU: its cost is {@code 2 x cid weight x
 * cost.mm_cid_per_cpu_check} instead of {@code 2 x nr_cpus x ...}. With {@code rcu} (patch 2) the
 * work is queued with {@code call_rcu()} instead of {@code task_work_add()}: it runs after a grace
 * period, in RCU softirq on the queuing CPU, or in the rcuo kthread on a housekeeping CPU when the
 * queuing CPU is offloaded (rcu_nocbs, isolated), where RT tasks can preempt it. With both off the
 * stage is mainline's. The work itself re-checks {@code mm_cid_next_scan} and advances it with a
 * compare-and-exchange, so one thread per mm per period scans.
 *
 * <p>Does not model: The scan's cost is fixed when the work is queued (from the cid weight then),
 * not when it runs; the bug the review found in patch 1 ({@code cpu} used uninitialised in {@code
 * for_each_cpu_from()}, and {@code mm_cidmask} being a mask of cids, not CPUs) is not reproduced:
 * the plugin models the patch's intent. RCU_LAZY deferral is not modelled.
 *
 * <p>Kernel reference: Seed 001:
 * https://lore.kernel.org/r/20241202140735.56368-1-gmonaco@redhat.com ("sched: improve
 * task_mm_cid_work impact on isolated systems", Gabriele Monaco, 2024-12-02). Review: Mathieu
 * Desnoyers showed patch 1's loop was wrong (dropped in v2); reviewers rejected RCU as the vehicle
 * (the work is not RCU-related, may run in softirq, RCU_LAZY can delay it by seconds, reusing
 * {@code task_struct::rcu} is risky); v2 used an mm-owned delayed work; the series (up to v14) was
 * never merged and mainline removed the compaction in v6.19 (77d7dc8bef48).
 */
final class OffloadedMmCidStage implements TickHook {
  private final boolean shortScan;
  private final boolean rcu;

  OffloadedMmCidStage(boolean shortScan, boolean rcu) {
    this.shortScan = shortScan;
    this.rcu = rcu;
  }

  @Override
  public void onTick(CpuView cpu, TaskView curr, SchedServices s) {
    MmCidControl m = s.mmCid();
    int mmId = curr.mmId();
    int pid = curr.pid();
    if (mmId < 0 || curr.isKthread() || m.workPending(pid)) {
      return;
    }
    if (s.jiffies() < m.nextScan(mmId)) {
      return;
    }
    m.setWorkPending(pid, true);
    // As the engine's MmCid.tick() does when it queues the work; looked up here, on the rare
    // queuing path (once per scan delay per mm), so the stage keeps no per-run state.
    s.counter("mm_cid.works_queued").increment();
    long checks = 2L * (shortScan ? m.cidWeight(mmId) : s.machine().nrCpus());
    long cost = checks * s.param("cost.mm_cid_per_cpu_check");
    long delayJiffies = s.param("sched.mm_cid_scan_delay") * s.machine().hz() / 1_000_000_000L;
    DeferredWork work =
        c -> {
          m.setWorkPending(pid, false);
          long old = m.nextScan(mmId);
          long now = s.jiffies();
          if (now < old || !m.tryAdvanceScan(mmId, old, now + delayJiffies)) {
            return;
          }
          m.compact(mmId);
          m.recordScan(c, cost);
        };
    s.defer(rcu ? DeferKind.RCU_CALLBACK : DeferKind.TASK_WORK, curr, cpu.id(), cost, 0, work);
  }
}
