package dev.schedlab.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.lab.rtapp.LogRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pi_enabled}: rt-app's mutexes become priority-inheritance futexes. */
class RtAppPiTest {
  @TempDir Path dir;

  /**
   * Priority inversion on CPU 0: low (FIFO 10) holds m for 4 ms; high (FIFO 90) wants it 1 ms in;
   * mid (FIFO 50) computes 10 ms from 2 ms. Each runs its phase once.
   */
  private Scenario inversion(boolean pi) throws Exception {
    String fifo = "\"policy\": \"SCHED_FIFO\", \"cpus\": [0], \"loop\": 1, ";
    Path f = dir.resolve("pi.json");
    Files.writeString(
        f,
        "{\"tasks\": {"
            + "\"low\": {"
            + fifo
            + "\"priority\": 10, \"lock\": \"m\", \"run\": 4000, \"unlock\": \"m\"},"
            + "\"high\": {"
            + fifo
            + "\"priority\": 90, \"delay\": 1000, \"lock\": \"m\", \"run\": 10,"
            + " \"unlock\": \"m\"},"
            + "\"mid\": {"
            + fifo
            + "\"priority\": 50, \"delay\": 2000, \"run\": 10000},"
            + "\"waiter\": {\"loop\": 1, \"lock\": \"w\","
            + " \"wait\": {\"ref\": \"c\", \"mutex\": \"w\"}, \"unlock\": \"w\"}"
            + "}, \"global\": {\"duration\": 1, \"calibration\": 20, \"logdir\": \"./\","
            + " \"pi_enabled\": "
            + pi
            + "}}");
    return ScenarioLoader.load(f);
  }

  @Test
  void piEnabledMakesTheMutexesPiFutexesOnAnRtMutex() throws Exception {
    Scenario s = inversion(true);
    assertThat(RtAppFixtures.flat(RtAppFixtures.task(s, "low-0").program()))
        .contains(
            new StepSpec.PiMutexLock("rtapp/pi_mutex/m"),
            new StepSpec.PiMutexUnlock("rtapp/pi_mutex/m"));
    // a condition's mutex too: glibc's condition wait unlocks and retakes it as a PI mutex
    assertThat(RtAppFixtures.flat(RtAppFixtures.task(s, "waiter-3").program()))
        .contains(new StepSpec.CondWait("rtapp/cond/c", "rtapp/pi_mutex/w", true));
    assertThat(s.workload().locks())
        .containsExactlyInAnyOrder(
            new LockSpec("rtapp/pi_mutex/m", LockSpec.Kind.RT_MUTEX),
            new LockSpec("rtapp/pi_mutex/w", LockSpec.Kind.RT_MUTEX));
  }

  @Test
  void theHolderInheritsThePriorityAndTheMediumThreadWaits() throws Exception {
    long withPi = highPhase(inversion(true));
    long without = highPhase(inversion(false));
    // high's phase: its wait for m and 10 us of run. With PI low finishes its 4 ms above mid
    // (about 3 ms of wait); without, mid's 10 ms come first.
    assertThat(withPi).isBetween(3_000L, 3_500L);
    assertThat(without).isGreaterThan(12_000L);
  }

  private static long highPhase(Scenario s) throws Exception {
    List<LogRow> rows = RtAppFixtures.report(s).rows(RtAppFixtures.run(s)).get("high-1");
    assertThat(rows).hasSize(1);
    return rows.get(0).end() - rows.get(0).start();
  }
}
