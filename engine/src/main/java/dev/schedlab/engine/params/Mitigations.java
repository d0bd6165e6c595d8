package dev.schedlab.engine.params;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a machine's speculative-execution mitigations add to the default kernel path costs. Only
 * defaults change: a cost a scenario or a calibration sets is taken as measured on that machine,
 * mitigations included.
 *
 * <p>Models: each mitigation names the paths it lengthens (the cost.mitigation_* entries of {@link
 * Param} say by how much and why). Names, from /sys/devices/system/cpu/vulnerabilities and
 * /proc/cpuinfo: {@code pti} (meltdown "Mitigation: PTI"), {@code pcid} (the CPU flag; PTI without
 * it flushes the TLB), {@code retpoline}, {@code rsb_fill}, {@code ibpb} (spectre_v2 "IBPB:
 * always-on"), {@code verw} ("Clear CPU buffers"), {@code return_thunk} (retbleed/SRSO thunks).
 *
 * <p>Does not model: the mechanisms themselves (a mitigation is a cost per path), and the host's
 * own mitigations on a VM exit.
 *
 * <p>Kernel reference: {@code arch/x86/kernel/cpu/bugs.c}, {@code arch/x86/entry/entry_64.S},
 * Documentation/admin-guide/hw-vuln/.
 */
public final class Mitigations {
  private Mitigations() {}

  /**
   * Adjusted defaults for {@code mitigations}: a map of parameter keys to values, to apply beneath
   * {@code explicit} (which keeps every key it sets).
   */
  public static Map<String, Long> defaults(List<String> mitigations, Map<String, Long> explicit) {
    Map<String, Long> out = new TreeMap<>();
    if (mitigations.isEmpty()) {
      return out;
    }
    long pct =
        (mitigations.contains("retpoline") ? value(Param.MITIGATION_RETPOLINE_PCT, explicit) : 0)
            + (mitigations.contains("return_thunk")
                ? value(Param.MITIGATION_RETURN_THUNK_PCT, explicit)
                : 0);
    for (Param p : Param.values()) {
      if (pct > 0 && isKernelPathCost(p)) {
        out.put(p.key(), p.defaultValue() + p.defaultValue() * pct / 100);
      }
    }
    if (mitigations.contains("pti")) {
      long perCrossing =
          value(Param.MITIGATION_PTI, explicit)
              + (mitigations.contains("pcid") ? 0 : value(Param.MITIGATION_PTI_NOPCID, explicit));
      for (Param p :
          List.of(Param.SYSCALL_ENTRY, Param.EXIT_TO_USER, Param.IRQ_ENTRY, Param.IRQ_EXIT)) {
        add(out, p, perCrossing);
      }
    }
    if (mitigations.contains("verw")) {
      add(out, Param.EXIT_TO_USER, value(Param.MITIGATION_VERW, explicit));
    }
    if (mitigations.contains("rsb_fill")) {
      long rsb = value(Param.MITIGATION_RSB_FILL, explicit);
      add(out, Param.CTX_SWITCH, rsb);
      add(out, Param.CTX_SWITCH_LIGHT, rsb);
    }
    if (mitigations.contains("ibpb")) {
      add(out, Param.CTX_SWITCH, value(Param.MITIGATION_IBPB, explicit));
    }
    out.keySet().removeAll(explicit.keySet());
    return out;
  }

  /** Adds {@code ns} to {@code p}'s adjusted default (its default if not adjusted yet). */
  private static void add(Map<String, Long> out, Param p, long ns) {
    out.put(p.key(), out.getOrDefault(p.key(), p.defaultValue()) + ns);
  }

  /**
   * A guest kernel path's CPU time: the cost.* entries in ns, not the mitigations' own nor the
   * host's side of a VM exit.
   */
  static boolean isKernelPathCost(Param p) {
    return p.key().startsWith("cost.")
        && p.unit() == Param.Unit.NS
        && !p.key().startsWith("cost.mitigation_")
        && !p.key().startsWith("cost.vm_");
  }

  private static long value(Param p, Map<String, Long> explicit) {
    return explicit.getOrDefault(p.key(), p.defaultValue());
  }
}
