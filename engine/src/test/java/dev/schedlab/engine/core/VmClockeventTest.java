package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/**
 * In a guest every clockevent reprogram traps to the host (cost.vm_timer_exit). A task that sleeps
 * 100 us, then runs 1 us, on an otherwise idle HLT-only vCPU costs per cycle: the hrtimer
 * interrupt's reprogram, the tick restart's (the next tick is earlier than nothing else), and the
 * sleep's hrtimer_start (earlier than the restarted tick); the tick stop cancels a tick that is not
 * the next event, so no exit there.
 */
class VmClockeventTest {
  /** Busy (non-idle) time per wakeup of the task, ns. */
  private static double busyPerCycle(boolean virtualized, long exitCostNs) {
    Kernel k =
        TestRun.run()
            .duration(10 * MS)
            .cpus(1, 1, 1)
            .idleStates("hlt-only")
            .virtualized(virtualized)
            .noJitter()
            .param(Param.VM_TIMER_EXIT, exitCostNs)
            .tasks(task("t").program(sleep(100 * US), user(US)))
            .kernel();
    k.run(10_000_000);
    k.idleLoop.closeResidency(k.cpus[0]); // count the idle period the run ends in
    return (10_000_000 - k.cpus[0].idleNs) / (double) TestKernels.counter(k, "sched.wakeups");
  }

  @Test
  void everyGuestCycleSpendsThreeTimerExits() {
    double extra = busyPerCycle(true, 2 * US) - busyPerCycle(true, 0);
    assertThat(extra).isBetween(3 * 2_000 - 200.0, 3 * 2_000 + 200.0);
  }

  @Test
  void bareMetalPaysNoTimerExit() {
    assertThat(busyPerCycle(false, 2 * US)).isEqualTo(busyPerCycle(false, 0));
  }
}
