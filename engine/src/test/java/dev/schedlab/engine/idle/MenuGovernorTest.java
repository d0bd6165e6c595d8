package dev.schedlab.engine.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.engine.machine.IdleState;
import dev.schedlab.engine.machine.IdleStateTables;
import java.lang.reflect.Proxy;
import java.util.List;
import org.junit.jupiter.api.Test;

/** menu_select() rules the model keeps, checked on the icx table (POLL, C1 1/1, C1E 4/4, C6 170/600 us). */
class MenuGovernorTest {
  private static final long US = 1_000;
  private static final long NO_TIMER = Long.MAX_VALUE;

  private final List<IdleState> icx = IdleStateTables.table("icx", List.of());
  private final CpuView cpu0 = stub(CpuView.class, "id", 0, "tickStopped", false);

  private MenuGovernor governor(List<IdleState> states, long... idleHistoryNs) {
    MachineView m = stub(MachineView.class, "nrCpus", 1, "tickNs", 1_000_000L, "idleStates", states);
    MenuGovernor g = new MenuGovernor();
    g.init(m);
    for (long h : idleHistoryNs) {
      g.reflect(cpu0, 0, h);
    }
    return g;
  }

  private static long[] eight(long ns) {
    return new long[] {ns, ns, ns, ns, ns, ns, ns, ns};
  }

  @Test
  void shortPredictionWithNoTimerDueTakesC1InsteadOfBusyPolling() {
    MenuGovernor g = governor(icx, eight(300));
    assertEquals(1, g.select(cpu0, NO_TIMER, 900 * US, Long.MAX_VALUE));
  }

  @Test
  void shortPredictionWithATimerDueBeforeC1PaysOffPolls() {
    MenuGovernor g = governor(icx, eight(300));
    assertEquals(0, g.select(cpu0, 500, 900 * US, Long.MAX_VALUE));
  }

  @Test
  void latencyLimitBelowC1ExitLatencyPolls() {
    MenuGovernor g = governor(icx, eight(300));
    assertEquals(0, g.select(cpu0, NO_TIMER, 900 * US, 500));
  }

  @Test
  void deepestStateThatFitsThePredictionIsChosen() {
    MenuGovernor g = governor(icx, eight(50 * US));
    assertEquals(2, g.select(cpu0, NO_TIMER, 900 * US, Long.MAX_VALUE));
  }

  @Test
  void withTheTickStoppedAShortPredictionGivesWayToTheNextTimer() {
    CpuView stopped = stub(CpuView.class, "id", 0, "tickStopped", true);
    MenuGovernor g = governor(icx, eight(300));
    assertEquals(3, g.select(stopped, 2_000 * US, Long.MAX_VALUE, Long.MAX_VALUE));
    assertEquals(2, g.select(stopped, 100 * US, Long.MAX_VALUE, Long.MAX_VALUE));
  }

  @Test
  void aSoftwarePollStateWithoutTheFlagIsKeptWhenNothingDeeperFits() {
    // POWER9 snooze on the seed's v4.17 kernel: no CPUIDLE_FLAG_POLLING, so menu may stay in it.
    MenuGovernor g = governor(IdleStateTables.table("power9", List.of()), eight(300));
    assertEquals(0, g.select(cpu0, NO_TIMER, 900 * US, Long.MAX_VALUE));
  }

  @SuppressWarnings("unchecked")
  private static <T> T stub(Class<T> type, Object... answers) {
    return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, args) -> {
      for (int i = 0; i < answers.length; i += 2) {
        if (answers[i].equals(m.getName())) {
          return answers[i + 1];
        }
      }
      throw new UnsupportedOperationException(m.getName());
    });
  }
}
