package dev.schedlab.engine.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cpuidle state tables of the model (section 2.2).
 *
 * <p>Models: the intel_idle tables skx, icx and spr (exit latency, target residency, {@code
 * CPUIDLE_FLAG_IRQ_ENABLE} of C1 where the driver sets it), amd-acpi (C1 MWAIT, C2 I/O port),
 * power9 (snooze and stop states), poll-only and hlt-only, or a machine's own list. Every x86 table
 * starts with POLL ({@code poll_state.c}); MWAIT-entered C-states are polling for the scheduler.
 * {@code hlt-only} (a VM guest without haltpoll, or arm64 WFI) has one non-polling state.
 *
 * <p>Does not model: the power a state saves, and latencies that differ by package state or by
 * core.
 *
 * <p>Kernel reference: {@code drivers/idle/intel_idle.c} ({@code skx_cstates}, {@code icx_cstates},
 * {@code spr_cstates}), {@code drivers/acpi/processor_idle.c}, {@code
 * drivers/cpuidle/cpuidle-powernv.c}, {@code drivers/cpuidle/poll_state.c}.
 */
public final class IdleStateTables {
  private static final IdleState POLL = new IdleState("POLL", 0, 0, true, true);

  private static final Map<String, List<IdleState>> TABLES =
      Map.of(
          // [src] drivers/idle/intel_idle.c skx_cstates; C1 with CPUIDLE_FLAG_IRQ_ENABLE since
          // v5.16 ("intel_idle: enable interrupts before C1 on Xeons", Artem Bityutskiy)
          "skx", List.of(POLL, mwaitIrqOn("C1", 2, 2), mwait("C1E", 10, 20), mwait("C6", 133, 600)),
          // [src] intel_idle.c icx_cstates; C1 as for skx
          "icx", List.of(POLL, mwaitIrqOn("C1", 1, 1), mwait("C1E", 4, 4), mwait("C6", 170, 600)),
          // [src] intel_idle.c spr_cstates
          "spr", List.of(POLL, mwait("C1", 1, 1), mwait("C1E", 2, 4), mwait("C6", 290, 800)),
          // [src] acpi_idle on EPYC: C1 via MWAIT/FFH, C2 via I/O port (non-polling), FreeBSD
          // D47444
          "amd-acpi",
              List.of(POLL, mwait("C1", 1, 2), new IdleState("C2", 400_000, 800_000, false, true)),
          // [src] POWER9 powernv: snooze polls, stop states do not [estimate: latencies]. The
          // preset's kernel is v4.17 (seed 004): snooze got CPUIDLE_FLAG_POLLING only later.
          "power9",
              List.of(
                  new IdleState("snooze", 0, 0, true, true, false),
                  new IdleState("stop0_lite", 1_000, 10_000, false, true),
                  new IdleState("stop2", 10_000, 100_000, false, true)),
          "poll-only", List.of(POLL),
          // default_idle_call(): HLT/WFI, every wakeup needs an IPI
          "hlt-only", List.of(new IdleState("HLT", 1_000, 0, false, true)));

  private IdleStateTables() {}

  private static IdleState mwait(String name, long exitUs, long residencyUs) {
    return new IdleState(name, exitUs * 1_000, residencyUs * 1_000, true, true);
  }

  private static IdleState mwaitIrqOn(String name, long exitUs, long residencyUs) {
    return new IdleState(name, exitUs * 1_000, residencyUs * 1_000, true, true, false, true);
  }

  /** Names of the known tables. */
  public static Set<String> names() {
    return TABLES.keySet();
  }

  /** Table {@code name} with {@code disabled} states switched off. */
  public static List<IdleState> table(String name, List<String> disabled) {
    List<IdleState> t = TABLES.get(name);
    if (t == null) {
      throw new IllegalArgumentException(
          "unknown idle_states '"
              + name
              + "'; expected one of "
              + new java.util.TreeSet<>(names()));
    }
    return withDisabled(name, t, disabled);
  }

  /** A machine's own table (a machine file's list) with {@code disabled} states switched off. */
  public static List<IdleState> custom(List<IdleState> states, List<String> disabled) {
    return withDisabled("custom", states, disabled);
  }

  private static List<IdleState> withDisabled(
      String name, List<IdleState> t, List<String> disabled) {
    List<IdleState> out = new ArrayList<>(t.size());
    for (IdleState s : t) {
      boolean off = disabled.contains(s.name());
      out.add(off ? s.withEnabled(false) : s);
    }
    for (String d : disabled) {
      if (t.stream().noneMatch(s -> s.name().equals(d))) {
        throw new IllegalArgumentException(
            "disabled_states: table '" + name + "' has no state " + d);
      }
    }
    return List.copyOf(out);
  }
}
