package dev.schedlab.engine.core;

import dev.schedlab.api.SchedMode;
import dev.schedlab.api.TaskState;

/**
 * The pre-idle spin window that hook H2 ({@code BeforeDeactivateHook}) opens: a CPU whose task
 * blocks spins for the hook's limit instead of dequeuing it, with prev current and queued.
 *
 * <p>Models: the spin phase with IRQs on; its end by a wakeup of prev (seen one cache-line transfer
 * after the waker's store), by NEED_RESCHED, or by the limit; an interrupt taken in the window and
 * the return to it; the rest of {@code __schedule()} run again at the end (woken, prev is picked
 * again without a switch). Counters {@code spin.*}.
 *
 * <p>Does not model: the spin loop's exit cost; signals; SMT priority lowering while spinning.
 *
 * <p>Kernel reference: "[RFC PATCH] kernel/sched/core: busy wait before going idle", Nicholas
 * Piggin, LKML 2018-04-15 ({@code __schedule()}, {@code goto idle_spin_end}); never merged.
 */
final class IdleSpinWindow {
  private final Kernel k;
  private final Scheduler sched;
  private final MetricCounter spins;
  private final MetricCounter spinWakeups;
  private final MetricCounter spinTimeouts;
  private final MetricCounter spinNs;

  IdleSpinWindow(Kernel k, Scheduler sched) {
    this.k = k;
    this.sched = sched;
    spins = k.metrics.counter("spin.started");
    spinWakeups = k.metrics.counter("spin.ended_by_wakeup");
    spinTimeouts = k.metrics.counter("spin.timeouts");
    spinNs = k.metrics.counter("spin.cpu_ns");
  }

  void startSpin(Cpu cpu, Task prev, long limitNs) {
    spins.value++;
    cpu.spinEnd = k.now + limitNs;
    cpu.spinDone = 0;
    cpu.spinWokenCounted = false;
    cpu.opIrqsOff = false;
    k.setPhase(cpu, Cpu.P_SPIN, limitNs);
  }

  /** The spin phase ended: the limit passed, or the loop saw prev woken (see spinnerWoken). */
  void spinTimeout(Cpu cpu) {
    if (cpu.curr.state != TaskState.RUNNING) {
      spinTimeouts.value++;
    }
    endSpin(cpu);
  }

  /** Back in the spin after an IRQ: a wakeup or NEED_RESCHED ends it. */
  void resumeSpin(Cpu cpu) {
    Task prev = cpu.curr;
    if (prev.state == TaskState.RUNNING || prev.needResched || k.now >= cpu.spinEnd) {
      if (prev.state == TaskState.RUNNING && !cpu.spinWokenCounted) {
        cpu.spinWokenCounted = true;
        spinWakeups.value++; // woken while the spinning CPU was in the interrupt
      } else if (prev.state != TaskState.RUNNING && !prev.needResched) {
        spinTimeouts.value++;
      }
      cpu.phase = Cpu.P_SPIN;
      cpu.phaseStart = k.now; // empty current stretch
      endSpin(cpu);
    } else {
      k.setPhase(cpu, Cpu.P_SPIN, cpu.spinEnd - k.now);
    }
  }

  /**
   * Called from the waker when a task spinning on its CPU is woken: the spin loop sees {@code
   * prev->state} change one cache-line transfer later, on its own CPU.
   */
  void spinnerWoken(Cpu cpu) {
    if (cpu.phase == Cpu.P_SPIN && !cpu.spinWokenCounted) {
      cpu.spinWokenCounted = true;
      spinWakeups.value++;
      long seen = k.now + k.irqs.cacheline(k.cpus[k.thisCpu], cpu);
      if (seen < cpu.spinEnd) {
        k.queue.schedule(cpu.phaseEv, seen);
      }
    }
  }

  private void endSpin(Cpu cpu) {
    spinNs.value += cpu.spinDone + (k.now - cpu.phaseStart);
    cpu.spinDone = 0;
    Task prev = cpu.curr;
    // rq_lock_irq(); goto idle_spin_end: the rest of __schedule() runs again. Woken, prev is not
    // dequeued and is picked again (no switch); else the normal sleep path (or a preemption).
    sched.schedule(
        cpu,
        prev.state == TaskState.RUNNING && prev.needResched ? SchedMode.PREEMPT : SchedMode.NONE,
        0);
  }
}
