package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.IpiPath;
import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/**
 * Cross-CPU calls: the polling-idle shortcut versus a real IPI, and IRQs-off latching (1.3, 1.12).
 */
class CrossCpuCallTest {
  private static String idleMachine(String states) {
    return "duration: 1s\nmachine: {sockets: 1, cores_per_socket: 2, threads_per_core: 1, idle_states: "
        + states
        + "}\nworkload: {tasks: []}\n";
  }

  @Test
  void callToPollingIdleCpuSetsNeedReschedAndSendsNoIpi() {
    Kernel k = TestKernels.kernel(idleMachine("poll-only"));
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
    Kernel k = TestKernels.kernel(idleMachine("hlt-only"));
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
    Kernel k =
        TestKernels.kernel(idleMachine("poll-only") + "kernel: {features: {POLLING_IPI: false}}\n");
    k.run(50_000);
    k.thisCpu = 0;
    k.irqs.callFunction(k.cpus[0], k.cpus[1], 0, cpu -> {}, null, IpiPath.CALL_FUNCTION);
    assertThat(TestKernels.counter(k, "ipi.sent.call_function")).isEqualTo(1);
  }

  private static final String BUSY_CPU0 =
      "duration: 1s\n"
          + "machine: {sockets: 1, cores_per_socket: 2, threads_per_core: 1, idle_states: hlt-only}\n"
          + "kernel: {params: {cost.jitter_pct: 0}}\n"
          + "workload:\n  tasks:\n    - name: busy\n      cpus: \"0\"\n      program:\n"
          + "        - kernel: [{duration: 100us, irqs_off: %s}]\n        - user: 10ms\n";

  private static long callRunsAt(boolean irqsOff) {
    Kernel k = TestKernels.kernel(String.format(BUSY_CPU0, irqsOff));
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
    Kernel k =
        TestKernels.kernel(idleMachine("hlt-only") + "kernel: {params: {cost.jitter_pct: 0}}\n");
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
