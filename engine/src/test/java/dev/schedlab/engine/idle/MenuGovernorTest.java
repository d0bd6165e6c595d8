package dev.schedlab.engine.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.engine.machine.IdleState;
import dev.schedlab.engine.machine.IdleStateTables;
import java.lang.reflect.Proxy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * menu (v6.11) rules, checked on the icx table (POLL, C1 1/1, C1E 4/4, C6 170/600 us) and the
 * amd-acpi table (POLL, C1 1/2, C2 400/800 us).
 */
class MenuGovernorTest {
  private static final long US = 1_000;
  private static final long NO_TIMER = Long.MAX_VALUE;
  private static final long TICK = 1_000 * US;

  private final List<IdleState> icx = IdleStateTables.table("icx", List.of());
  private final List<IdleState> amd = IdleStateTables.table("amd-acpi", List.of());
  private final CpuView cpu0 = cpu(false, false);

  private static CpuView cpu(boolean tickStopped, boolean gotTick) {
    return stub(CpuView.class, "id", 0, "tickStopped", tickStopped, "idleGotTick", gotTick);
  }

  private static MenuGovernor governor(List<IdleState> states) {
    MachineView m = stub(MachineView.class, "nrCpus", 1, "tickNs", TICK, "idleStates", states);
    MenuGovernor g = new MenuGovernor();
    g.init(m);
    return g;
  }

  /** Idle periods in {@code state}, each as long as cpuidle measured it, one per entry. */
  private static MenuGovernor afterIdlePeriods(
      List<IdleState> states, int state, long... residencyNs) {
    MenuGovernor g = governor(states);
    for (long r : residencyNs) {
      g.select(cpu(false, false), NO_TIMER, TICK, Long.MAX_VALUE);
      g.reflect(cpu(false, false), state, r);
    }
    return g;
  }

  /** Eight idle periods in {@code state}, each {@code residencyNs} long. */
  private static MenuGovernor learned(List<IdleState> states, int state, long residencyNs) {
    return afterIdlePeriods(
        states,
        state,
        residencyNs,
        residencyNs,
        residencyNs,
        residencyNs,
        residencyNs,
        residencyNs,
        residencyNs,
        residencyNs);
  }

  @Test
  void aPredictionShorterThanC1sExitLatencyKeepsTheCpuPolling() {
    // 1.5 us in C1 is less than twice its 1 us exit latency: menu_update() halves it (0 us).
    MenuGovernor g = learned(icx, 1, 1_500);
    assertEquals(0, g.select(cpu0, NO_TIMER, TICK, Long.MAX_VALUE));
    assertFalse(g.stopTick(cpu0, 0, NO_TIMER));
  }

  @Test
  void aPhysicalStateIsUsedInsteadOfPollingUnlessATimerIsDueFirst() {
    // 2.5 us in C1 less its exit latency: 1 us typical, under C1's 2 us target residency.
    MenuGovernor g = learned(amd, 1, 2_500);
    assertEquals(1, g.select(cpu0, NO_TIMER, TICK, Long.MAX_VALUE));
    assertEquals(0, g.select(cpu0, 1_500, TICK, Long.MAX_VALUE));
  }

  @Test
  void latencyLimitBelowC1ExitLatencyPolls() {
    MenuGovernor g = learned(icx, 2, 54 * US);
    assertEquals(0, g.select(cpu0, NO_TIMER, TICK, 500));
  }

  @Test
  void deepestStateThatFitsThePredictionIsChosenAndTheTickKept() {
    MenuGovernor g = learned(icx, 2, 54 * US);
    assertEquals(2, g.select(cpu0, NO_TIMER, TICK, Long.MAX_VALUE));
    assertFalse(g.stopTick(cpu0, 2, NO_TIMER));
  }

  @Test
  void upsideOutliersAreDroppedFromTheTypicalInterval() {
    MenuGovernor g =
        afterIdlePeriods(
            icx, 2, 54 * US, 54 * US, 5_000 * US, 54 * US, 54 * US, 5_000 * US, 54 * US, 54 * US);
    assertEquals(2, g.select(cpu0, NO_TIMER, TICK, Long.MAX_VALUE));
  }

  @Test
  void aSpreadOutHistoryLeavesTheSleepLengthToDecide() {
    MenuGovernor g =
        afterIdlePeriods(
            icx, 2, 3 * US, 900 * US, 40 * US, 300 * US, 7 * US, 600 * US, 90 * US, 200 * US);
    assertEquals(3, g.select(cpu0, NO_TIMER, TICK, Long.MAX_VALUE));
    assertTrue(g.stopTick(cpu0, 3, NO_TIMER));
  }

  @Test
  void tickWakeupsTeachALongIdlePeriod() {
    // Woken by the tick each time although no timer was due: menu_update() assumes a long idle.
    MenuGovernor g = governor(icx);
    for (int i = 0; i < 8; i++) {
      g.select(cpu0, NO_TIMER, TICK, Long.MAX_VALUE);
      g.reflect(cpu(false, true), 1, 1_000 * US);
    }
    assertEquals(3, g.select(cpu0, NO_TIMER, TICK, Long.MAX_VALUE));
    assertTrue(g.stopTick(cpu0, 3, NO_TIMER));
  }

  @Test
  void withTheTickStoppedAShortPredictionGivesWayToTheNextTimer() {
    CpuView stopped = cpu(true, false);
    MenuGovernor g = learned(icx, 1, 1_500);
    assertEquals(3, g.select(stopped, 2_000 * US, Long.MAX_VALUE, Long.MAX_VALUE));
    assertEquals(2, g.select(stopped, 100 * US, Long.MAX_VALUE, Long.MAX_VALUE));
  }

  @Test
  void aSoftwarePollStateWithoutTheFlagIsKeptWhenNothingDeeperFits() {
    // POWER9 snooze on the seed's v4.17 kernel: no CPUIDLE_FLAG_POLLING, so menu may stay in it.
    MenuGovernor g = learned(IdleStateTables.table("power9", List.of()), 0, 300);
    assertEquals(0, g.select(cpu0, NO_TIMER, TICK, Long.MAX_VALUE));
  }

  @SuppressWarnings("unchecked")
  private static <T> T stub(Class<T> type, Object... answers) {
    return (T)
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (p, m, args) -> {
              for (int i = 0; i < answers.length; i += 2) {
                if (answers[i].equals(m.getName())) {
                  return answers[i + 1];
                }
              }
              throw new UnsupportedOperationException(m.getName());
            });
  }
}
