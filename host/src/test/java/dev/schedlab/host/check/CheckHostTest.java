package dev.schedlab.host.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.host.HostException;
import dev.schedlab.host.ModelRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The suite's bookkeeping: verdicts, skips with install hints, privilege marks, failures on either
 * side, and rows reaching the listener as each workload finishes.
 */
class CheckHostTest {
  private static final Env USER = new Env(1, true, false, 2);

  /** A check whose runs return fixed figures or fail. */
  private record Fake(
      String name,
      List<String> programs,
      boolean needsRoot,
      Map<String, Double> realFigures,
      Map<String, Double> modelFigures)
      implements Check {
    @Override
    public String installHint() {
      return "apt install fake-tools";
    }

    @Override
    public List<Figure> figures() {
      return List.of(
          new Figure("a", "us", Tolerance.factor(1.5)),
          new Figure("b", "us", Tolerance.factor(1.5)));
    }

    @Override
    public Map<String, Double> real(Env env) throws HostException {
      if (realFigures == null) {
        throw new HostException("the tool crashed");
      }
      return realFigures;
    }

    @Override
    public Map<String, Double> model(ModelRunner model, Env env) throws HostException {
      if (modelFigures == null) {
        throw new HostException("no such tool in the model");
      }
      return modelFigures;
    }
  }

  private static List<Row> run(Check... checks) {
    List<String> started = new ArrayList<>();
    List<Row> streamed = new ArrayList<>();
    List<Row> rows =
        CheckHost.run(
            List.of(checks),
            null,
            USER,
            new CheckHost.Listener() {
              @Override
              public void starting(int index, int total, String workload) {
                started.add(index + "/" + total + " " + workload);
              }

              @Override
              public void rows(List<Row> r) {
                streamed.addAll(r);
              }
            });
    assertThat(streamed).isEqualTo(rows);
    assertThat(started).hasSize(2 * checks.length); // every host run, then every model run
    assertThat(started.get(0)).startsWith("0/" + 2 * checks.length + " host: ");
    assertThat(started.get(checks.length)).contains(" model: ");
    return rows;
  }

  @Test
  void figuresGetAVerdictByTheirTolerance() {
    List<Row> rows =
        run(
            new Fake(
                "w",
                List.of("sh"),
                false,
                Map.of("a", 10.0, "b", 10.0),
                Map.of("a", 12.0, "b", 30.0)));
    assertThat(rows).extracting(Row::verdict).containsExactly("ok", "outside");
    assertThat(rows.get(1).ratio()).isEqualTo(3.0);
    assertThat(CheckTable.summary(rows))
        .startsWith("2 of 2 figures measured; 1 within tolerance (50 %), 1 within a factor 2");
  }

  @Test
  void aMissingToolSkipsItsRowsWithTheInstallHint() {
    List<Row> rows = run(new Fake("w", List.of("no-such-tool-here"), false, Map.of(), Map.of()));
    assertThat(rows).hasSize(2).allMatch(r -> !r.measured());
    assertThat(rows.get(0).verdict())
        .isEqualTo("skipped: no-such-tool-here not found (apt install fake-tools)");
  }

  @Test
  void aMissingPrivilegeMarksTheRowsAndFailuresOnEitherSideAreKept() {
    List<Row> rows =
        run(
            new Fake("rt", List.of("sh"), true, Map.of("a", 1.0), Map.of("a", 1.0)),
            new Fake("broken", List.of("sh"), false, null, Map.of()),
            new Fake("unmodelled", List.of("sh"), false, Map.of("a", 3.0, "b", 4.0), null));
    assertThat(rows)
        .extracting(Row::verdict)
        .containsExactly(
            "needs root (real-time priority)", "needs root (real-time priority)",
            "real run failed: the tool crashed", "real run failed: the tool crashed",
            "model failed: no such tool in the model", "model failed: no such tool in the model");
    assertThat(rows.get(4).real()).isEqualTo(3.0); // what was measured is kept
    assertThat(CheckTable.text(rows)).contains("model failed");
  }

  @Test
  void theSuiteCoversTheIssuesWorkloads() {
    List<String> names =
        CheckHost.suite(new Env(10, false, true, 2)).stream().map(Check::name).toList();
    assertThat(names)
        .contains(
            "cyclictest SCHED_OTHER quiet",
            "cyclictest SCHED_FIFO quiet",
            "cyclictest SCHED_FIFO beside stress-ng --cpu 0",
            "cyclictest SCHED_OTHER beside stress-ng --mmap 0",
            "stress-ng --cyclic (SCHED_DEADLINE) quiet",
            "stress-ng --cyclic (SCHED_DEADLINE) beside stress-ng --mmap 0",
            "hackbench -g 1/2/4",
            "perf bench sched pipe x1 (below the CPU count)",
            "perf bench sched pipe x4 (above the CPU count)",
            "stress-ng --cpu 3 (one hog more than CPUs)",
            "interrupts during cyclictest -i 1000 -t",
            "interrupts during cyclictest -i 100 -d 100 --latency=1000 -t -m");
  }
}
