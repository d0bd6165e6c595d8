package dev.schedlab.engine.core;

import dev.schedlab.api.hook.MmCidControl;
import dev.schedlab.engine.params.Param;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The mainline mm concurrency-ID compaction (v6.4-v6.18, section 3.1).
 *
 * <p>Models: {@code task_tick_mm_cid()} queues {@code task_mm_cid_work()} as a task_work on the
 * current task at most once per {@code MM_CID_SCAN_DELAY} per mm; the work runs at that task's next
 * exit to user and scans every possible CPU twice ({@code sched_mm_cid_remote_clear_old} and {@code
 * _clear_weight}), costing {@code 2 * nr_cpus * cost.mm_cid_per_cpu_check} whatever the process
 * uses.
 *
 * <p>Does not model: the cid values themselves (which cid a task gets), and the cache misses of the
 * scan beyond its per-CPU cost.
 *
 * <p>Kernel reference: {@code kernel/sched/core.c} ({@code task_tick_mm_cid}, {@code
 * task_mm_cid_work}, {@code sched_mm_cid_remote_clear_old}, {@code
 * sched_mm_cid_remote_clear_weight}), {@code kernel/sched/sched.h} ({@code MM_CID_SCAN_DELAY}).
 */
final class MmCid implements MmCidControl {
  private final Kernel k;
  private final MetricCounter queued;
  private final MetricCounter scans;
  private final MetricCounter scanNs;
  private final MetricCounter scanNsIsolated;

  /** {@code curr->cid_work}: one callback object for every task, so queuing allocates nothing. */
  private final TaskWorkItem cidWork = this::work;

  /**
   * Address spaces by id, and tasks by pid (a slot per pid: pids are small and dense), for plugins.
   */
  private final List<Mm> mms = new ArrayList<>();

  private final List<Task> tasks = new ArrayList<>();

  void register(Mm mm) {
    set(mms, mm.id, mm);
  }

  void register(Task t) {
    set(tasks, t.pid, t);
  }

  private static <T> void set(List<T> byId, int id, T value) {
    while (byId.size() <= id) {
      byId.add(null);
    }
    byId.set(id, value);
  }

  private @Nullable Task task(int pid) {
    return pid >= 0 && pid < tasks.size() ? tasks.get(pid) : null;
  }

  private Mm mm(int id) {
    Mm m = id >= 0 && id < mms.size() ? mms.get(id) : null;
    if (m == null) {
      throw new IllegalArgumentException("no address space with id " + id);
    }
    return m;
  }

  @Override
  public long nextScan(int mmId) {
    return mm(mmId).nextScan;
  }

  @Override
  public boolean tryAdvanceScan(int mmId, long expected, long next) {
    Mm m = mm(mmId);
    if (m.nextScan != expected) {
      return false;
    }
    m.nextScan = next;
    return true;
  }

  @Override
  public int cidWeight(int mmId) {
    return mm(mmId).cidWeight();
  }

  @Override
  public void compact(int mmId) {
    compact(mm(mmId));
  }

  @Override
  public boolean workPending(int pid) {
    Task t = task(pid);
    return t != null && t.cidWorkQueued;
  }

  @Override
  public void setWorkPending(int pid, boolean pending) {
    Task t = task(pid);
    if (t != null) {
      t.cidWorkQueued = pending;
    }
  }

  @Override
  public void recordScan(int cpu, long costNs) {
    record(cpu, costNs);
  }

  MmCid(Kernel k) {
    this.k = k;
    queued = k.metrics.counter("mm_cid.works_queued");
    scans = k.metrics.counter("mm_cid.scans");
    scanNs = k.metrics.counter("mm_cid.scan_ns");
    scanNsIsolated = k.metrics.counter("mm_cid.scan_ns_on_isolated_cpus");
  }

  /** {@code task_tick_mm_cid()}: the tick's mm_cid stage for {@code curr}. */
  void tick(Cpu cpu, Task curr) {
    if (curr.mm == null || curr.kthread || curr.cidWorkQueued) {
      return;
    }
    if (k.jiffies() < curr.mm.nextScan) {
      return;
    }
    curr.cidWorkQueued = true;
    queued.value++;
    curr.addTaskWork(cidWork);
  }

  /** {@code task_mm_cid_work()} in the task's context; returns its CPU time. */
  private long work(Task t, int cpu) {
    t.cidWorkQueued = false;
    Mm mm = Objects.requireNonNull(t.mm); // queued only for tasks with an address space
    long now = k.jiffies();
    if (t.state == dev.schedlab.api.TaskState.DEAD || now < mm.nextScan) {
      return 0;
    }
    mm.nextScan = now + k.costs.p(Param.MM_CID_SCAN_DELAY) * k.hz / 1_000_000_000L;
    compact(mm);
    long cost = 2L * k.cpus.length * k.costs.p(Param.MM_CID_PER_CPU);
    record(cpu, cost);
    return cost;
  }

  /** Clears the cids of CPUs that have not run the mm for a period and do not run it now. */
  void compact(Mm mm) {
    long period = k.costs.p(Param.MM_CID_PERIOD);
    for (int c = mm.nextAllocated(0); c >= 0; c = mm.nextAllocated(c + 1)) {
      Task cur = k.cpus[c].curr;
      if (cur.mm != mm && k.now - mm.lastUsed(c) >= period) {
        mm.release(c);
      }
    }
  }

  /** Counts a scan of {@code costNs} run on {@code cpu}. */
  void record(int cpu, long costNs) {
    scans.value++;
    scanNs.value += costNs;
    if (k.cpus[cpu].isolated) {
      scanNsIsolated.value += costNs;
    }
  }
}
