package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * In a guest every clockevent reprogram traps to the host (cost.vm_timer_exit). A task that sleeps
 * 100 us, then runs 1 us, on an otherwise idle HLT-only vCPU costs per cycle: the hrtimer
 * interrupt's reprogram, the tick restart's (the next tick is earlier than nothing else), and the
 * sleep's hrtimer_start (earlier than the restarted tick); the tick stop cancels a tick that is not
 * the next event, so no exit there.
 */
class VmClockeventTest {
  private static final String GUEST =
      String.join(
          "\n",
          "duration: 10ms",
          "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1, idle_states: hlt-only,"
              + " virtualized: %s}",
          "kernel: {params: {cost.jitter_pct: 0, cost.vm_timer_exit: %s}}",
          "workload: {tasks: [{name: t, program: [{sleep: 100us}, {user: 1us}]}]}",
          "");

  /** Busy (non-idle) time per wakeup of the task, ns. */
  private static double busyPerCycle(boolean virtualized, String exitCost) {
    Kernel k = TestKernels.kernel(String.format(GUEST, virtualized, exitCost));
    k.run(10_000_000);
    k.idleLoop.closeResidency(k.cpus[0]); // count the idle period the run ends in
    return (10_000_000 - k.cpus[0].idleNs) / (double) TestKernels.counter(k, "sched.wakeups");
  }

  @Test
  void everyGuestCycleSpendsThreeTimerExits() {
    double extra = busyPerCycle(true, "2us") - busyPerCycle(true, "0ns");
    assertThat(extra).isBetween(3 * 2_000 - 200.0, 3 * 2_000 + 200.0);
  }

  @Test
  void bareMetalPaysNoTimerExit() {
    assertThat(busyPerCycle(false, "2us")).isEqualTo(busyPerCycle(false, "0ns"));
  }
}
