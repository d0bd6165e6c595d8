package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.block;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/**
 * Which wakeups go through the target's wake list, by kernel version ({@code
 * feature.TTWU_QUEUE_IDLE}): since v6.0 {@code ttwu_queue_cond()} queues on another LLC's CPU and
 * on an idle CPU of the waker's LLC; v4.17's {@code ttwu_queue()} queues only across LLCs, and
 * within one the waker activates the task and reschedules the target itself.
 */
class WakeListRuleTest {
  private static final long LINE = Param.CACHELINE_SAME_LLC.defaultValue();
  private static final long ACTIVATION = Param.TTWU_LOCAL.defaultValue() + 2 * LINE;

  /**
   * Four CPUs, two per LLC (0-1, 2-3); a sleeper on CPU 1 (the waker's LLC) and one on CPU 2 (the
   * other), both blocked for good at 1.5 ms with their CPUs idle in {@code idleStates}.
   */
  private static Kernel sleepers(boolean queueIdle, String idleStates, String... disabled) {
    Kernel k =
        TestRun.run()
            .duration(10 * MS)
            .cpus(1, 4, 1)
            .coresPerLlc(2)
            .idleStates(idleStates)
            .disabledStates(disabled)
            .noJitter()
            .feature(Param.TTWU_QUEUE_IDLE, queueIdle)
            .tasks(
                task("near").cpus("1").program(block("never")),
                task("far").cpus("2").program(block("never")))
            .kernel();
    k.run(MS + MS / 2); // between two ticks (HZ=1000)
    assertThat(named(k, "near").onRq).isFalse();
    assertThat(named(k, "far").onRq).isFalse();
    return k;
  }

  private static Task named(Kernel k, String comm) {
    return k.tasks.stream().filter(t -> t.comm.equals(comm)).findFirst().orElseThrow();
  }

  /** {@code try_to_wake_up()} of {@code comm} from CPU 0; returns the waker's path cost. */
  private static long wakeFromCpu0(Kernel k, String comm) {
    k.thisCpu = 0;
    k.pathCost = 0;
    k.sched.wakeUp(named(k, comm), 0);
    return k.pathCost;
  }

  private static long counter(Kernel k, String name) {
    return TestKernels.counter(k, name);
  }

  @Test
  void v417TheWakerActivatesOnAnIdlePollingCpuOfItsLlcWithoutAnIpi() {
    Kernel k = sleepers(false, "poll-only");
    long start = k.now;

    long cost = wakeFromCpu0(k, "near");

    Task near = named(k, "near");
    assertThat(near.onRq).as("activated by the waker").isTrue();
    assertThat(k.cpus[1].nrRunning).isEqualTo(1);
    assertThat(counter(k, "sched.wakeups_wakelist")).isZero();
    // rq_lock() and update_rq_clock() take two lines CPU 1 wrote last, then ttwu_do_activate()
    assertThat(cost).isEqualTo(ACTIVATION);
    // set_nr_and_not_polling(): the poll loop sees NEED_RESCHED, no IPI
    assertThat(counter(k, "ipi.sent.resched")).isZero();
    assertThat(counter(k, "ipi.polling_shortcut.resched")).isEqualTo(1);
    // ...written at the end of the activation, not when the wakeup began: CPU 1 polls until then,
    // sees the flag (latency.poll_wake) and does cpuidle's exit bookkeeping
    assertThat(k.cpus[1].phase).isEqualTo(Cpu.P_IDLE_WAKE);
    while (k.cpus[1].phase == Cpu.P_IDLE_WAKE) {
      k.run(k.now + 10);
    }
    long exit = ACTIVATION + Param.POLL_WAKE.defaultValue() + Param.CPUIDLE_EXIT.defaultValue();
    assertThat(k.now - start).isBetween(exit, exit + 10);
    while (k.cpus[1].curr != near) {
      k.run(k.now + 10);
    }
  }

  @Test
  void v6TheWakerQueuesOnAnIdleCpuOfItsLlc() {
    Kernel k = sleepers(true, "poll-only");

    long cost = wakeFromCpu0(k, "near");

    assertThat(named(k, "near").onRq).as("activated later by CPU 1").isFalse();
    assertThat(k.cpus[1].ttwuPending).isTrue();
    assertThat(counter(k, "sched.wakeups_wakelist")).isEqualTo(1);
    assertThat(cost).isLessThan(Param.TTWU_LOCAL.defaultValue());
    assertThat(counter(k, "ipi.polling_shortcut.remote_wakeup")).isEqualTo(1);
    assertThat(counter(k, "ipi.polling_shortcut.resched")).isZero();
  }

  @Test
  void acrossLlcsBothRulesQueue() {
    for (boolean queueIdle : new boolean[] {false, true}) {
      Kernel k = sleepers(queueIdle, "poll-only");

      wakeFromCpu0(k, "far");

      assertThat(named(k, "far").onRq).as("queued, TTWU_QUEUE_IDLE=" + queueIdle).isFalse();
      assertThat(k.cpus[2].ttwuPending).isTrue();
      assertThat(counter(k, "sched.wakeups_wakelist")).isEqualTo(1);
    }
  }

  @Test
  void v417ACpuInAStopStateDoesNotPollAndGetsARescheduleIpi() {
    // POWER9 without snooze: stop states leave TIF_POLLING_NRFLAG clear
    Kernel k = sleepers(false, "power9", "snooze");
    assertThat(k.cpus[1].phase).isEqualTo(Cpu.P_IDLE_STATE);
    assertThat(k.cpus[1].curr.polling).isFalse();
    long start = k.now;

    wakeFromCpu0(k, "near");

    assertThat(named(k, "near").onRq).isTrue();
    assertThat(counter(k, "ipi.sent.resched")).isEqualTo(1);
    // resched_curr() ends ttwu_do_activate(): the IPI leaves after the activation, not when the
    // wakeup began
    assertThat(k.cpus[1].ipiResched.time())
        .isEqualTo(start + ACTIVATION + Param.IPI_SAME_SOCKET.defaultValue());
    assertThat(counter(k, "ipi.polling_shortcut.resched")).isZero();
    assertThat(counter(k, "sched.wakeups_wakelist")).isZero();
  }
}
