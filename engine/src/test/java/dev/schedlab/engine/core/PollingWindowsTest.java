package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.IpiPath;
import dev.schedlab.api.ReschedBit;
import dev.schedlab.engine.params.Param;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Where an idle CPU stops polling (kernel-model.md 1.9): {@code call_cpuidle()} clears POLLING
 * until MWAIT sets it again, and after MWAIT returns it stays clear until {@code
 * cpuidle_idle_call()} is back in the loop. A cross-CPU call in those windows needs an IPI.
 */
class PollingWindowsTest {
  private static Kernel idleIcx() {
    return TestRun.run().cpus(1, 2, 1).idleStates("icx").noJitter().kernel();
  }

  /** Runs in 10 ns steps until {@code cond} holds for CPU 1; fails after {@code limitNs}. */
  private static void runUntil(Kernel k, Predicate<Cpu> cond, long limitNs) {
    long t = k.now;
    while (!cond.test(k.cpus[1])) {
      t += 10;
      assertThat(t).as("condition reached in time").isLessThan(limitNs);
      k.run(t);
    }
  }

  private static void call(Kernel k) {
    k.thisCpu = 0;
    k.irqs.callFunction(k.cpus[0], k.cpus[1], 0, cpu -> {}, null, IpiPath.CALL_FUNCTION);
  }

  @Test
  void aCallWhileTheCpuIsOnItsWayIntoAnMwaitStateNeedsAnIpi() {
    Kernel k = idleIcx();
    runUntil(k, c -> c.enteringState >= 0, 100_000);
    assertThat(k.cpus[1].curr.polling).as("call_cpuidle() cleared POLLING").isFalse();

    call(k);

    assertThat(TestKernels.counter(k, "ipi.sent.call_function")).isEqualTo(1);
    assertThat(TestKernels.counter(k, "ipi.polling_shortcut.call_function")).isZero();
    // The MWAIT state is entered all the same (POLLING set again), and the IPI wakes it.
    runUntil(k, c -> c.phase == Cpu.P_IDLE_STATE, 100_000);
    assertThat(k.cpus[1].curr.polling).isTrue();
    runUntil(k, c -> c.phase == Cpu.P_IDLE_WAKE, 100_000);
    assertThat(k.cpus[1].curr.polling).as("MWAIT returned: current_clr_polling()").isFalse();
  }

  @Test
  void pollingIsSetAgainOnlyWhenTheInterruptWasHandled() {
    Kernel k = idleIcx();
    runUntil(k, c -> c.enteringState >= 0, 100_000);
    call(k);
    // The governor chose C6 (no history yet): its exit takes 170 us.
    runUntil(k, c -> c.phase == Cpu.P_IRQ_ENTRY || c.phase == Cpu.P_IRQ_BODY, 1_000_000);
    assertThat(k.cpus[1].curr.polling).as("in the IPI handler after MWAIT").isFalse();
    runUntil(k, c -> c.phase == Cpu.P_IDLE_ENTER, 1_000_000);
    assertThat(k.cpus[1].curr.polling).as("back in the idle loop").isTrue();

    call(k);

    assertThat(TestKernels.counter(k, "ipi.polling_shortcut.call_function")).isEqualTo(1);
  }

  @Test
  void aReschedOnTheWayIntoAnMwaitStateReturnsAtOnceWithoutWaitingForItsIpi() {
    Kernel k = idleIcx();
    runUntil(k, c -> c.enteringState >= 0, 100_000);
    long sent = k.now;
    k.thisCpu = 0;
    k.sched.setResched(k.cpus[1], ReschedBit.NR); // POLLING is clear: NR and a RESCHEDULE IPI

    assertThat(TestKernels.counter(k, "ipi.sent.resched")).isEqualTo(1);
    // current_set_polling_and_test() sees NR: no MWAIT, straight to the loop exit.
    runUntil(k, c -> c.phase == Cpu.P_IDLE_EXIT, 100_000);
    assertThat(k.now - sent).isLessThan(Param.IPI_SAME_SOCKET.defaultValue());
    assertThat(TestKernels.counter(k, "idle.loop_exits")).isEqualTo(1);
  }

  /** CPU 1 idles in C1 only (deeper states disabled) of the given intel_idle table. */
  private static Kernel c1Only(String table) {
    return TestRun.run()
        .cpus(1, 2, 1)
        .idleStates(table)
        .disabledStates("C1E", "C6")
        .noJitter()
        .kernel();
  }

  private static boolean pollingInTheHandlerAfterC1(String table) {
    Kernel k = c1Only(table);
    runUntil(k, c -> c.phase == Cpu.P_IDLE_STATE, 100_000);
    k.thisCpu = 0;
    k.irqs.sendIpi(k.cpus[0], k.cpus[1], Cpu.IRQ_CALL, IpiPath.CALL_FUNCTION);
    runUntil(k, c -> c.phase == Cpu.P_IRQ_ENTRY, 100_000);
    return k.cpus[1].curr.polling;
  }

  @Test
  void icelakeC1TakesTheInterruptInsideMwaitStillPollingAndDoesTheBookkeepingAfter() {
    // icx C1 has CPUIDLE_FLAG_IRQ_ENABLE (intel_idle_irq()); spr C1 does not.
    assertThat(pollingInTheHandlerAfterC1("icx")).isTrue();
    assertThat(pollingInTheHandlerAfterC1("spr")).isFalse();

    Kernel k = c1Only("icx");
    runUntil(k, c -> c.phase == Cpu.P_IDLE_STATE, 100_000);
    k.thisCpu = 0;
    k.irqs.sendIpi(k.cpus[0], k.cpus[1], Cpu.IRQ_CALL, IpiPath.CALL_FUNCTION);
    runUntil(k, c -> c.phase == Cpu.P_IRQ_ENTRY, 100_000);
    runUntil(k, c -> c.phase == Cpu.P_IDLE_WAKE, 100_000);
    assertThat(k.cpus[1].curr.polling).as("MWAIT returned after the handler").isFalse();
    long bookkeepingFrom = k.now;
    runUntil(k, c -> c.phase == Cpu.P_IDLE_ENTER, 100_000);
    assertThat(k.now - bookkeepingFrom)
        .isBetween(Param.CPUIDLE_EXIT.defaultValue() - 10, Param.CPUIDLE_EXIT.defaultValue() + 10);
    assertThat(k.cpus[1].curr.polling).isTrue();
  }

  @Test
  void anInterruptInsidePollIdleIsHandledInPlaceAndTheCpuPollsOn() {
    Kernel k = TestRun.run().cpus(1, 2, 1).idleStates("poll-only").noJitter().kernel();
    runUntil(k, c -> c.phase == Cpu.P_IDLE_STATE, 100_000);
    long entries = TestKernels.counter(k, "idle.entries.POLL");

    k.irqs.raise(k.cpus[1], Cpu.IRQ_CALL); // poll_idle() runs with IRQs on

    assertThat(k.cpus[1].phase).isEqualTo(Cpu.P_IRQ_ENTRY);
    assertThat(k.cpus[1].curr.polling).as("still inside poll_idle()").isTrue();
    runUntil(k, c -> c.phase == Cpu.P_IDLE_STATE, 100_000);
    assertThat(TestKernels.counter(k, "idle.entries.POLL"))
        .as("no new idle entry")
        .isEqualTo(entries);

    call(k);

    assertThat(TestKernels.counter(k, "ipi.polling_shortcut.call_function")).isEqualTo(1);
    assertThat(TestKernels.counter(k, "ipi.sent.call_function")).isZero();
  }
}
