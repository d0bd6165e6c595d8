package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.kernel;
import static dev.schedlab.engine.core.Steps.segment;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.IpiPath;
import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/**
 * Cross-CPU calls: the polling-idle shortcut versus a real IPI, and IRQs-off latching (1.3, 1.12).
 */
class CrossCpuCallTest {
  /** Two idle CPUs. */
  private static TestRun idleMachine(String states) {
    return TestRun.run().cpus(1, 2, 1).idleStates(states);
  }

  @Test
  void callToPollingIdleCpuSetsNeedReschedAndSendsNoIpi() {
    Kernel k = idleMachine("poll-only").kernel();
    k.run(50_000);
    Cpu target = k.cpus[1];
    assertThat(target.phase).isEqualTo(Cpu.P_IDLE_STATE);
    assertThat(target.curr.polling).isTrue();

    k.thisCpu = 0;
    k.irqs.callFunction(k.cpus[0], target, 0, cpu -> {}, null, IpiPath.CALL_FUNCTION);

    assertThat(target.curr.needResched).as("set_nr_if_polling on the idle task").isTrue();
    assertThat(target.ipiCall.scheduled()).isFalse();
    assertThat(TestKernels.counter(k, "ipi.polling_shortcut.call_function")).isEqualTo(1);
    assertThat(TestKernels.counter(k, "ipi.sent.call_function")).isZero();
  }

  @Test
  void callToHaltedCpuSendsARealIpi() {
    Kernel k = idleMachine("hlt-only").kernel();
    k.run(50_000);
    Cpu target = k.cpus[1];
    assertThat(target.curr.polling).as("HLT clears POLLING").isFalse();

    k.thisCpu = 0;
    k.irqs.callFunction(k.cpus[0], target, 0, cpu -> {}, null, IpiPath.CALL_FUNCTION);

    assertThat(target.curr.needResched).isFalse();
    assertThat(target.ipiCall.scheduled()).isTrue();
    assertThat(TestKernels.counter(k, "ipi.sent.call_function")).isEqualTo(1);
    assertThat(TestKernels.counter(k, "ipi.polling_shortcut.call_function")).isZero();
  }

  @Test
  void pollingShortcutCanBeSwitchedOff() {
    Kernel k = idleMachine("poll-only").feature(Param.POLLING_IPI, false).kernel();
    k.run(50_000);
    k.thisCpu = 0;
    k.irqs.callFunction(k.cpus[0], k.cpus[1], 0, cpu -> {}, null, IpiPath.CALL_FUNCTION);
    assertThat(TestKernels.counter(k, "ipi.sent.call_function")).isEqualTo(1);
  }

  /** CPU 0 runs 100 us syscalls ({@code irqsOff} or not) between 10 ms of user time. */
  private static long callRunsAt(boolean irqsOff) {
    Kernel k =
        idleMachine("hlt-only")
            .noJitter()
            .tasks(
                TestRun.task("busy")
                    .cpus("0")
                    .program(kernel(segment(100 * US, true, irqsOff, "NONE")), user(10 * MS)))
            .kernel();
    k.run(20_000);
    long[] ranAt = {-1};
    k.thisCpu = 1;
    k.irqs.callFunction(
        k.cpus[1], k.cpus[0], 0, cpu -> ranAt[0] = k.now, null, IpiPath.CALL_FUNCTION);
    k.run(300_000);
    return ranAt[0];
  }

  @Test
  void ipiToBusyCpuIsHandledAfterDeliveryAndEntry() {
    long expected = 20_000 + Param.IPI_SAME_SOCKET.defaultValue() + Param.IRQ_ENTRY.defaultValue();
    assertThat(callRunsAt(false)).isEqualTo(expected);
  }

  @Test
  void ipiToCpuWithIrqsOffIsDeliveredWhenTheyAreReenabled() {
    // Startup on CPU 0: idle entry, loop exit, schedule_idle (base + pick + light switch),
    // syscall entry, then the 100 us IRQs-off segment; the latched IPI is taken at its end.
    long segmentEnd =
        Param.DO_IDLE_ENTER.defaultValue()
            + Param.DO_IDLE_EXIT.defaultValue()
            + Param.SCHED_BASE.defaultValue()
            + Param.PICK_FAIR.defaultValue()
            + Param.CTX_SWITCH_LIGHT.defaultValue()
            + Param.SYSCALL_ENTRY.defaultValue()
            + 100_000;
    assertThat(callRunsAt(true)).isEqualTo(segmentEnd + Param.IRQ_ENTRY.defaultValue());
  }

  @Test
  void flushPullsTheQueueHeadAndTheCallersCsdFromTheSender() {
    Kernel k = idleMachine("hlt-only").noJitter().kernel();
    k.run(50_000);
    k.thisCpu = 0;
    Cpu target = k.cpus[1];
    k.irqs.callFunction(k.cpus[0], target, 0, cpu -> {}, null, IpiPath.CALL_FUNCTION);
    k.irqs.callFunction(k.cpus[0], target, 0, cpu -> {}, null, IpiPath.CALL_FUNCTION);

    k.pathCost = 0;
    k.irqs.flushCsd(target);

    long line = Param.CACHELINE_SAME_LLC.defaultValue();
    // llist_del_all() once, then per CSD its function run and the read of csd->func.
    assertThat(k.pathCost).isEqualTo(line + 2 * (Param.CSD_FN.defaultValue() + line));
  }
}
