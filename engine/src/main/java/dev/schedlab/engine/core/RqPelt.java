package dev.schedlab.engine.core;

import dev.schedlab.api.SchedulingClass;

/**
 * The runqueue's PELT signals other than the fair class's, and the capacity left for fair tasks.
 *
 * <p>Models: {@code update_other_load_avgs()}: {@code rq->avg_rt} and {@code rq->avg_dl} accrue
 * while a task of that class runs (load = runnable = running = 1, on the PELT clock), at every
 * context switch, tick and blocked-load update; {@code rq->avg_irq} from the CPU time spent in
 * interrupt entry and handlers since the last update, scaled by frequency and capacity and counted
 * as if it had just happened ({@code update_irq_load_avg()}, as with {@code
 * CONFIG_IRQ_TIME_ACCOUNTING}); {@code update_cpu_capacity()} with {@code scale_rt_capacity()}.
 *
 * <p>Does not model: hardware (thermal) pressure; the IRQ signal's more frequent updates from
 * {@code update_rq_clock_task()}; IRQ time is still charged to the interrupted task.
 *
 * <p>Kernel reference: {@code kernel/sched/pelt.c} ({@code update_rt_rq_load_avg}, {@code
 * update_dl_rq_load_avg}, {@code update_irq_load_avg}, {@code update_other_load_avgs}), {@code
 * kernel/sched/fair.c} ({@code scale_rt_capacity}, {@code update_cpu_capacity}).
 */
final class RqPelt {
  private RqPelt() {}

  /** Brings the RT, DL and IRQ signals of {@code cpu} up to its rq clock (set by the caller). */
  static void updateOthers(Cpu cpu) {
    long now = cpu.clockPelt();
    int rank = cpu.curr.classRank;
    boolean rt = rank == SchedulingClass.RANK_RT;
    boolean dl = rank == SchedulingClass.RANK_DEADLINE;
    if (cpu.avgRt.updateLoadSum(now, rt ? 1 : 0, rt ? 1 : 0, rt)) {
      cpu.avgRt.updateLoadAvg(1);
    }
    if (cpu.avgDl.updateLoadSum(now, dl ? 1 : 0, dl ? 1 : 0, dl)) {
      cpu.avgDl.updateLoadAvg(1);
    }
    long irqTime = irqTime(cpu);
    long running = irqTime - cpu.irqTimeAccounted;
    cpu.irqTimeAccounted = irqTime;
    running = running * cpu.freqCapacity / 1024 * cpu.capacityOrig / 1024;
    boolean decayed = cpu.avgIrq.updateLoadSum(cpu.clock - running, 0, 0, false);
    decayed |= cpu.avgIrq.updateLoadSum(cpu.clock, 1, 1, true);
    if (decayed) {
      cpu.avgIrq.updateLoadAvg(1);
    }
  }

  /** CPU time spent in IRQ entry and handlers up to the rq clock, ns. */
  private static long irqTime(Cpu cpu) {
    long t = cpu.irqNs;
    if (cpu.accountedPhase == Cpu.P_IRQ_ENTRY || cpu.accountedPhase == Cpu.P_IRQ_BODY) {
      t += Math.max(0, cpu.clock - cpu.accountedSince);
    }
    return t;
  }

  /** {@code update_cpu_capacity()}: {@code scale_rt_capacity()}, at least 1. */
  static void updateCapacity(Cpu cpu) {
    long max = cpu.capacityOrig;
    long irq = cpu.avgIrq.utilAvg;
    long used = cpu.avgRt.utilAvg + cpu.avgDl.utilAvg;
    long cap;
    if (irq >= max || used >= max) {
      cap = 1;
    } else {
      cap = (max - used) * (max - irq) / max;
    }
    long old = cpu.capacity;
    cpu.capacity = Math.max(1, cap);
    if (cpu.capacity != old) {
      for (GroupCapacity gc : cpu.groupCaps) {
        gc.capacityChanged();
      }
    }
  }
}
