package dev.schedlab.classes;

import dev.schedlab.api.SchedFlags;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.TaskView;

/**
 * First version of {@code select_task_rq_fair()} for wakeups.
 *
 * <p>Models: {@code wake_affine_idle()} when the waker shares prev's LLC (an idle waker CPU defers
 * to an idle prev; a WF_SYNC wakeup from a CPU whose only task is the waker targets the waker's
 * CPU; else prev) and a {@code select_idle_sibling()}-lite: target
 * if idle; prev if idle and in target's LLC; the first idle allowed CPU of target's LLC scanning
 * upward from target+1 with wrap-around within the LLC; else target; else the first allowed CPU.
 * As a stand-in for SIS_UTIL, the scan is skipped when no CPU of the LLC runs its idle task.
 *
 * <p>Does not model: {@code wake_affine_weight()}, SIS_UTIL's utilisation-scaled scan depth and
 * the scan's cost, idle cores,
 * recent_used_cpu, capacity/EAS, NUMA, {@code sched_balance_find_dst_cpu()} for fork/exec.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code select_task_rq_fair},
 * {@code wake_affine_idle}, {@code select_idle_sibling}, {@code select_idle_cpu}).
 */
final class FairSelect {
  private FairSelect() {}

  static int select(MachineView m, TaskView p, int prevCpu, int wakerCpu, int wakeFlags) {
    int target = prevCpu;
    if (p.allowedOn(wakerCpu) && m.sharesLlc(wakerCpu, prevCpu)) {
      target = wakeAffineIdle(m, prevCpu, wakerCpu, (wakeFlags & SchedFlags.WF_SYNC) != 0);
    }
    if (idleAllowed(m, p, target)) {
      return target;
    }
    if (prevCpu != target && idleAllowed(m, p, prevCpu) && m.sharesLlc(prevCpu, target)) {
      return prevCpu;
    }
    int w = m.llcWeight(target);
    if (m.llcIdleCpus(target) > 0) {
      int start = 0;
      while (start < w && m.llcCpu(target, start) != target) {
        start++;
      }
      for (int i = 1; i < w; i++) {
        int cpu = m.llcCpu(target, (start + i) % w);
        if (idleAllowed(m, p, cpu)) {
          return cpu;
        }
      }
    }
    if (p.allowedOn(target)) {
      return target;
    }
    int n = m.nrCpus();
    for (int cpu = 0; cpu < n; cpu++) {
      if (p.allowedOn(cpu)) {
        return cpu;
      }
    }
    return target;
  }

  /**
   * {@code wake_affine_idle()}: an idle waker CPU sharing the cache defers to an idle prev; a sync
   * wakeup from a CPU whose only task is the waker goes to the waker's CPU; else an idle prev;
   * else prev (standing in for {@code wake_affine_weight()}).
   */
  private static int wakeAffineIdle(MachineView m, int prevCpu, int wakerCpu, boolean sync) {
    if (m.cpu(wakerCpu).isIdle()) {
      return m.cpu(prevCpu).isIdle() ? prevCpu : wakerCpu;
    }
    if (sync && m.cpu(wakerCpu).rq().nrRunning() == 1) {
      return wakerCpu;
    }
    return prevCpu;
  }

  private static boolean idleAllowed(MachineView m, TaskView p, int cpu) {
    return p.allowedOn(cpu) && m.cpu(cpu).isIdle();
  }
}
