package dev.schedlab.engine.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.MachineView;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** haltpoll.c: poll window per CPU, grown and shrunk by how long the vCPU stayed halted. */
class HaltpollGovernorTest {
  private static final long US = 1_000;
  private static final long NONE = Long.MAX_VALUE;
  private static final long POLL_TIME = 250 * US; // cpuidle_poll_time() at HZ 250
  private final CpuView cpu0 =
      (CpuView)
          Proxy.newProxyInstance(
              CpuView.class.getClassLoader(),
              new Class<?>[] {CpuView.class},
              (p, m, a) -> {
                if (m.getName().equals("id")) {
                  return 0;
                }
                throw new UnsupportedOperationException(m.getName());
              });

  private static HaltpollGovernor governor(long haltPollNs) {
    Map<String, Long> params =
        Map.of(
            "haltpoll.guest_halt_poll_ns",
            haltPollNs,
            "haltpoll.guest_halt_poll_grow",
            2L,
            "haltpoll.guest_halt_poll_grow_start",
            50 * US,
            "haltpoll.guest_halt_poll_shrink",
            2L,
            "haltpoll.guest_halt_poll_allow_shrink",
            1L);
    MachineView m =
        (MachineView)
            Proxy.newProxyInstance(
                MachineView.class.getClassLoader(),
                new Class<?>[] {MachineView.class},
                (p, method, a) ->
                    switch (method.getName()) {
                      case "nrCpus" -> 1;
                      case "param" -> params.get((String) a[0]);
                      default -> throw new UnsupportedOperationException(method.getName());
                    });
    HaltpollGovernor g = new HaltpollGovernor();
    g.init(m);
    return g;
  }

  @Test
  void aZeroLatencyLimitPollsAndKeepsTheTick() {
    HaltpollGovernor g = governor(200 * US);
    assertEquals(0, g.select(cpu0, NONE, POLL_TIME, 0));
    assertFalse(g.stopTick(cpu0, 0, NONE));
  }

  @Test
  void withoutAPollWindowTheVcpuHaltsAndStopsTheTick() {
    HaltpollGovernor g = governor(0); // haltpoll.guest_halt_poll_ns=0 on the command line
    assertEquals(1, g.select(cpu0, NONE, POLL_TIME, NONE));
    assertTrue(g.stopTick(cpu0, 1, NONE));
    g.reflect(cpu0, 1, 900 * US, false);
    assertEquals(1, g.select(cpu0, NONE, POLL_TIME, NONE)); // never grows past 0
  }

  @Test
  void aShortHaltGrowsTheWindowAndThenTheVcpuPollsFirst() {
    HaltpollGovernor g = governor(200 * US);
    assertEquals(1, g.select(cpu0, NONE, POLL_TIME, NONE));
    g.reflect(cpu0, 1, 30 * US, false); // woken within guest_halt_poll_ns: grow to grow_start
    assertEquals(50 * US, g.pollTimeLimitNs(cpu0, POLL_TIME));
    assertEquals(0, g.select(cpu0, NONE, POLL_TIME, NONE));
    assertFalse(g.stopTick(cpu0, 0, NONE));
    g.reflect(cpu0, 0, 10 * US, false); // an event inside the window: poll again
    assertEquals(0, g.select(cpu0, NONE, POLL_TIME, NONE));
    g.reflect(cpu0, 0, 50 * US, true); // the window ran out: halt
    assertEquals(1, g.select(cpu0, NONE, POLL_TIME, NONE));
    g.reflect(cpu0, 1, 80 * US, false); // longer than the window, within the maximum: x2
    assertEquals(100 * US, g.pollTimeLimitNs(cpu0, POLL_TIME));
  }

  @Test
  void aLongHaltShrinksTheWindowToZeroBelowTheGrowStart() {
    HaltpollGovernor g = governor(200 * US);
    g.select(cpu0, NONE, POLL_TIME, NONE);
    g.reflect(cpu0, 1, 30 * US, false);
    g.reflect(cpu0, 1, 80 * US, false);
    assertEquals(100 * US, g.pollTimeLimitNs(cpu0, POLL_TIME));
    g.reflect(cpu0, 1, 5_000 * US, false); // longer than guest_halt_poll_ns: /2
    assertEquals(50 * US, g.pollTimeLimitNs(cpu0, POLL_TIME));
    g.reflect(cpu0, 1, 5_000 * US, false); // 25 us is below the grow start: 0
    assertEquals(1, g.select(cpu0, NONE, POLL_TIME, NONE));
  }

  @Test
  void theFirstPollCachesTheDriversPollTimeAsTheWindow() {
    HaltpollGovernor g = governor(0);
    assertEquals(0, g.select(cpu0, NONE, POLL_TIME, 0));
    assertEquals(POLL_TIME, g.pollTimeLimitNs(cpu0, POLL_TIME));
    // With a window now, a later idle entry under no PM QoS request polls first.
    assertEquals(0, g.select(cpu0, NONE, POLL_TIME, NONE));
  }
}
