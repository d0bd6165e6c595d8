package dev.schedlab.engine.params;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Mitigations add their costs to the default kernel path costs; explicit values win. */
class MitigationsTest {
  private static long value(List<String> mitigations, Map<String, Long> explicit, Param p) {
    return ParamTable.of(Mitigations.defaults(mitigations, explicit), explicit, Map.of()).get(p);
  }

  @Test
  void ptiWithoutPcidPaysTheCr3SwitchAndTheFlushOnEveryCrossing() {
    long base = Param.SYSCALL_ENTRY.defaultValue();
    long pcid = Param.MITIGATION_PTI.defaultValue();
    long flush = Param.MITIGATION_PTI_NOPCID.defaultValue();
    assertThat(value(List.of("pti", "pcid"), Map.of(), Param.SYSCALL_ENTRY)).isEqualTo(base + pcid);
    assertThat(value(List.of("pti"), Map.of(), Param.SYSCALL_ENTRY)).isEqualTo(base + pcid + flush);
    assertThat(value(List.of("pti"), Map.of(), Param.IRQ_EXIT))
        .isEqualTo(Param.IRQ_EXIT.defaultValue() + pcid + flush);
  }

  @Test
  void retpolinesAndReturnThunksLengthenEveryKernelPathByTheirPercentages() {
    long pct =
        Param.MITIGATION_RETPOLINE_PCT.defaultValue()
            + Param.MITIGATION_RETURN_THUNK_PCT.defaultValue();
    long sched = Param.SCHED_BASE.defaultValue();
    assertThat(value(List.of("retpoline", "return_thunk"), Map.of(), Param.SCHED_BASE))
        .isEqualTo(sched + sched * pct / 100);
    // A hardware latency and the host's side of a VM exit are not guest kernel code.
    assertThat(value(List.of("retpoline"), Map.of(), Param.VM_IPI_EXIT))
        .isEqualTo(Param.VM_IPI_EXIT.defaultValue());
    assertThat(value(List.of("retpoline"), Map.of(), Param.IPI_SAME_SOCKET))
        .isEqualTo(Param.IPI_SAME_SOCKET.defaultValue());
  }

  @Test
  void contextSwitchesPayTheRsbFillAndIbpbOnlyBetweenMms() {
    long rsb = Param.MITIGATION_RSB_FILL.defaultValue();
    long ibpb = Param.MITIGATION_IBPB.defaultValue();
    List<String> m = List.of("rsb_fill", "ibpb");
    assertThat(value(m, Map.of(), Param.CTX_SWITCH))
        .isEqualTo(Param.CTX_SWITCH.defaultValue() + rsb + ibpb);
    assertThat(value(m, Map.of(), Param.CTX_SWITCH_LIGHT))
        .isEqualTo(Param.CTX_SWITCH_LIGHT.defaultValue() + rsb);
  }

  @Test
  void aMeasuredCostIsTakenAsItIsAndTheMitigationsOwnCostsCanBeSet() {
    Map<String, Long> explicit = Map.of("cost.syscall_entry", 180L, "cost.mitigation_verw", 1_000L);
    assertThat(value(List.of("pti", "verw"), explicit, Param.SYSCALL_ENTRY)).isEqualTo(180);
    assertThat(value(List.of("verw"), explicit, Param.EXIT_TO_USER))
        .isEqualTo(Param.EXIT_TO_USER.defaultValue() + 1_000);
  }

  @Test
  void noMitigationsChangeNothing() {
    assertThat(Mitigations.defaults(List.of(), Map.of())).isEmpty();
  }
}
