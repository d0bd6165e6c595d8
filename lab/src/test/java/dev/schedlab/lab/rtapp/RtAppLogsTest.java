package dev.schedlab.lab.rtapp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.rtapp.RtAppPlan.Kind;
import dev.schedlab.lab.rtapp.RtAppPlan.PhasePlan;
import dev.schedlab.lab.rtapp.RtAppPlan.ThreadPlan;
import dev.schedlab.lab.rtapp.RtAppPlan.TimedEvent;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioLoader;
import dev.schedlab.lab.workload.ToolRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** rt-app's log files: the real tool's layout, the rows' meaning, the files and their parsing. */
class RtAppLogsTest {
  private static final String PERIODIC =
      String.join(
          "\n",
          "{ \"tasks\" : {",
          "    \"p\" : { \"loop\" : 20, \"run\" : 1000, \"timer\" : { \"ref\" : \"unique\", \"period\" : 10000 } },",
          "    \"q\" : { \"instance\" : 2, \"run\" : 300, \"sleep\" : 700 } },",
          "  \"global\" : { \"duration\" : 1, \"calibration\" : 20, \"log_basename\" : \"per\",",
          "    \"gnuplot\" : true, \"default_policy\" : \"SCHED_FIFO\" },",
          "  \"machine\" : { \"sockets\" : 1, \"cores_per_socket\" : 4, \"threads_per_core\" : 1,",
          "    \"idle_states\" : \"poll-only\" } }",
          "");

  @TempDir Path dir;

  static Path recorded() throws Exception {
    return Path.of(RtAppLogsTest.class.getResource("/rtapp/recorded/periodic.json").toURI())
        .getParent();
  }

  private static RtAppReport report(Scenario s) {
    return s.workload().tools().stream()
        .map(ToolRun::report)
        .filter(RtAppReport.class::isInstance)
        .map(RtAppReport.class::cast)
        .findFirst()
        .orElseThrow();
  }

  private static RunResult run(Scenario s) throws Exception {
    try (PluginHost host = PluginHost.builtinOnly()) {
      return Simulation.run(s.config(), host.extensionsFor(List.of()), TraceSink.NONE);
    }
  }

  private Scenario periodic() throws Exception {
    Path f = dir.resolve("per.json");
    Files.writeString(f, PERIODIC);
    return ScenarioLoader.load(f);
  }

  @Test
  void everyLineOfARealRtAppLogIsReproducedByOurFormat() throws Exception {
    for (Path log : Files.list(recorded()).filter(p -> p.toString().endsWith(".log")).toList()) {
      List<String> lines = Files.readAllLines(log);
      LogParser.LogFile f = LogParser.read(log, "periodic");
      assertThat(f.comments()).singleElement().asString().startsWith("# Policy : SCHED_OTHER");
      assertThat(lines.get(1) + "\n").isEqualTo(LogFormat.header());
      assertThat(f.rows()).hasSize(lines.size() - 2);
      for (int i = 0; i < f.rows().size(); i++) {
        assertThat(LogFormat.row(f.rows().get(i))).isEqualTo(lines.get(i + 2) + "\n");
      }
    }
  }

  @Test
  void aSchedlabLogHasTheColumnLayoutRtAppWrites() throws Exception {
    Scenario s = periodic();
    Map<String, String> files = report(s).files(run(s));
    String ours = files.get("per-p-0.log");
    String real = Files.readString(recorded().resolve("periodic-light-0.log"));
    List<String> ourLines = ours.lines().toList();
    List<String> realLines = real.lines().filter(l -> !l.startsWith("# ")).toList();
    assertThat(ourLines.get(0)).isEqualTo(realLines.get(0));
    // Every row has rt-app's fixed widths: each column ends where the real one does.
    assertThat(ourLines.subList(1, ourLines.size()))
        .allSatisfy(l -> assertThat(columnEnds(l)).isEqualTo(columnEnds(realLines.get(1))));
    assertThat(LogParser.parse("per-p-0.log", "p-0", ours).rows()).hasSize(20);
  }

  /** Index of the last character of each whitespace-separated field. */
  private static List<Integer> columnEnds(String line) {
    List<Integer> ends = new java.util.ArrayList<>();
    for (int i = 0; i < line.length(); i++) {
      if (line.charAt(i) != ' ' && (i + 1 == line.length() || line.charAt(i + 1) == ' ')) {
        ends.add(i);
      }
    }
    return ends;
  }

  @Test
  void rowsCarryWhatRtAppMeasures() throws Exception {
    // No SMT sibling slows the run events, and idle CPUs poll (no C-state exit), so a FIFO
    // thread wakes within microseconds.
    Scenario s = periodic();
    List<LogRow> rows = report(s).rows(run(s)).get("p-0");
    assertThat(rows).hasSize(20); // loop 20, then the thread exits
    for (int i = 0; i < rows.size(); i++) {
      LogRow r = rows.get(i);
      assertThat(r.idx()).isZero();
      assertThat(r.perf()).isEqualTo(1000 / 20);
      assertThat(r.cDuration()).isEqualTo(1000);
      assertThat(r.cPeriod()).isEqualTo(10000);
      assertThat(r.run()).isBetween(1000L, 1100L);
      assertThat(r.period()).isBetween(9900L, 10100L);
      assertThat(r.slack()).isBetween(8800L, 9000L);
      assertThat(r.wuLat()).isBetween(0L, 100L);
      assertThat(r.relSt()).isEqualTo(r.start());
      assertThat(r.end() - r.start()).isBetween(r.period(), r.period() + 1);
      if (i > 0) {
        // A timer phase starts where the previous one ended.
        assertThat(r.start() - rows.get(i - 1).end()).isBetween(0L, 20L);
      }
    }
    assertThat(report(s).rows(run(s)).get("q-2").get(0).idx()).isEqualTo(2);
  }

  @Test
  void rowsFollowRtAppsTimerAccounting() {
    // Two timers per phase: the first slept (slack 400 us, woke 7.5 us late), the second missed
    // (slack -0.5 us): the missed one resets wu_lat to 0 and its floored slack is -1 us.
    ThreadPlan t =
        new ThreadPlan(
            "t",
            "t-0",
            0,
            false,
            "SCHED_FIFO",
            -1,
            List.of(
                new PhasePlan(
                    1,
                    List.of(
                        new TimedEvent(Kind.RUN, 100),
                        new TimedEvent(Kind.TIMER, 500),
                        new TimedEvent(Kind.TIMER, 500)))));
    Map<String, long[]> raw =
        Map.of(
            "clock/t-0/start", new long[] {0, 1_000_000, 2_000_000, 3_000_000},
            "clock/t-0/end", new long[] {999_999, 1_999_999, 2_999_999, 3_999_999},
            "clock/t-0/run_b", new long[] {0, 1_000_000, 2_000_000, 3_000_000},
            "clock/t-0/run_e", new long[] {100_999, 1_100_999, 2_100_999, 3_100_999},
            "clock/t-0/slack", new long[] {400_000, -500, 400_000, 300, 400_000, -500, 5, 5},
            "clock/t-0/wu", new long[] {7_500, 7_500, 1_000, 7_500, 2_000, 3_000});
    RtAppPlan plain =
        new RtAppPlan("f", new LogSpec(true, ".", "b", 0, false), 10, false, List.of(t), List.of());
    List<LogRow> rows = LogRows.of(plain, t, "t-0", 0, raw);
    assertThat(rows).hasSize(4);
    assertThat(rows.get(0)).isEqualTo(new LogRow(0, 10, 100, 999, 0, 999, 0, -1, 100, 1000, 0));
    // second row: both timers slept: 7.5 + 1.0 us truncated to 7 + 1
    assertThat(rows.get(1).wuLat()).isEqualTo(8);
    assertThat(rows.get(1).slack()).isZero(); // 300 ns floored
    RtAppPlan cumulative =
        new RtAppPlan("f", new LogSpec(true, ".", "b", 2, false), 10, true, List.of(t), List.of());
    List<LogRow> ring = LogRows.of(cumulative, t, "t-0", 0, raw);
    // the ring buffer of log_size keeps the newest rows; cumulative_slack sums the slacks
    assertThat(ring).extracting(LogRow::start).containsExactly(2000L, 3000L);
    assertThat(ring.get(0).slack()).isEqualTo(400 - 1);
  }

  @Test
  void gnuplotScriptsNameEveryThread() throws Exception {
    Scenario s = periodic();
    Map<String, String> files = report(s).files(run(s));
    assertThat(files.keySet())
        .containsExactlyInAnyOrder(
            "per-p-0.log",
            "per-q-1.log",
            "per-q-2.log",
            "per-p-0.plot",
            "per-q-1.plot",
            "per-q-2.plot",
            "per-period.plot",
            "per-run.plot");
    assertThat(files.get("per-period.plot"))
        .contains(
            "plot \"per-p-0.log\" u ($5/1000):4 w l"
                + " title \"thread [p-0] (SCHED_FIFO)\", \"per-q-1.log\"")
        .contains("set output 'per-period.eps'");
    assertThat(files.get("per-q-1.plot")).contains("set title \"Measured q-1 Loop stats\"");
  }

  @Test
  void logsAreWrittenWhole() throws Exception {
    Scenario s = periodic();
    RunResult r = run(s);
    assertThatThrownBy(() -> report(s).writeLogs(r, dir.resolve("missing")))
        .hasMessageContaining("does not exist");
    assertThat(dir.resolve("missing")).doesNotExist();
    Path out = Files.createDirectory(dir.resolve("logs"));
    List<Path> written = report(s).writeLogs(r, out);
    assertThat(written).hasSize(8);
    try (Stream<Path> ls = Files.list(out)) {
      assertThat(ls.map(p -> p.getFileName().toString()))
          .allSatisfy(n -> assertThat(n).startsWith("per-").doesNotEndWith(".tmp"));
    }
    assertThat(LogParser.readAll(out, "per").keySet()).containsExactly("p-0", "q-1", "q-2");
    assertThat(Files.readString(out.resolve("per-p-0.log"), StandardCharsets.UTF_8))
        .isEqualTo(report(s).files(r).get("per-p-0.log"));
  }

  @Test
  void percentilesOfARecordedLog() throws Exception {
    Map<String, LogParser.LogFile> logs = LogParser.readAll(recorded(), "periodic");
    assertThat(logs.keySet()).containsExactly("heavy-1", "light-0", "sleeper-3", "waker-2");
    List<LogRow> light = logs.get("light-0").rows();
    long[] wu = LogStats.column(light, "wu_lat");
    long[] sorted = wu.clone();
    Arrays.sort(sorted);
    assertThat(LogStats.percentile(wu, 100)).isEqualTo(sorted[sorted.length - 1]);
    assertThat(LogStats.percentile(wu, 50)).isEqualTo(sorted[(sorted.length + 1) / 2 - 1]);
    Map<String, Map<String, Long>> sum = LogStats.summary(light);
    assertThat(sum.keySet()).containsExactly("wu_lat", "slack", "run", "c_duration", "period");
    assertThat(sum.get("c_duration").values()).containsOnly(1000L);
    assertThat(sum.get("wu_lat").get("p50")).isLessThanOrEqualTo(sum.get("wu_lat").get("p99"));
    assertThat(sum.get("slack").get("min")).isLessThanOrEqualTo(sum.get("slack").get("p50"));
  }

  @Test
  void aLogWithOtherColumnsIsRefusedWithItsLine() {
    assertThatThrownBy(
            () -> LogParser.parse("x.log", "x", "# Policy : SCHED_OTHER\n#idx perf run\n"))
        .hasMessageStartingWith("x.log:2:")
        .hasMessageContaining("are not rt-app's");
    assertThatThrownBy(() -> LogParser.parse("x.log", "x", LogFormat.header() + "1 2 3\n"))
        .hasMessageStartingWith("x.log:2:")
        .hasMessageContaining("3 fields, expected 11");
  }
}
