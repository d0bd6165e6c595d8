package dev.schedlab.host.check;

import dev.schedlab.host.Commands;
import dev.schedlab.host.HostException;
import dev.schedlab.host.ModelRunner;
import dev.schedlab.lab.rtapp.LogParser;
import dev.schedlab.lab.rtapp.LogRow;
import dev.schedlab.lab.rtapp.LogStats;
import dev.schedlab.lab.rtapp.RtAppReport;
import dev.schedlab.lab.workload.ToolRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * One rt-app file run by the real rt-app and by the model, compared on rt-app's own log columns:
 * the threads compute with {@code runtime} (wall time, so rt-app's loop calibration, which need not
 * converge on a busy machine, plays no part): two periodic threads (10 % and 30 % of a CPU), a
 * thread that resumes another every 20 ms, and two threads sharing a mutex. The file and its log
 * columns are rt-app's (doc/tutorial.txt); the tolerances are those of latencies (x1.5 at the
 * median, x2 at the 99th percentile).
 *
 * <p>The wall-time events are named {@code runtime1}, not {@code runtime}: upstream rt-app (the
 * model's reading) also takes a task-level {@code runtime} key as the legacy {@code dl-runtime},
 * the thread's custom slice, while the host's rt-app 1.0 (Debian) sets none ({@code
 * sched_setscheduler(SCHED_OTHER)} only, traced with strace). Both read {@code runtime1} as the
 * same event, so both run the same threads.
 */
final class RtAppCheck implements Check {
  /**
   * Figure: thread, column, percentile. {@code wu_lat} is how late the timer woke the thread,
   * {@code run} how long a loop's runtime events took (the configured wall time, longer when the
   * thread was preempted across its end).
   */
  private static final String[][] FIGURES = {
    {"light wu_lat p50", "light", "wu_lat", "50"},
    {"heavy wu_lat p50", "heavy", "wu_lat", "50"},
    {"heavy wu_lat p99", "heavy", "wu_lat", "99"},
    {"heavy run p99", "heavy", "run", "99"},
    {"waker wu_lat p50", "waker", "wu_lat", "50"},
  };

  @Override
  public String name() {
    return "rt-app periodic 10 %/30 %, resume chain, mutex pair";
  }

  @Override
  public List<String> programs() {
    return List.of("rt-app");
  }

  @Override
  public String installHint() {
    return "apt install rt-app";
  }

  @Override
  public boolean needsRoot() {
    return false;
  }

  @Override
  public List<Figure> figures() {
    return Stream.of(FIGURES)
        .map(
            f ->
                new Figure(
                    f[0], "us", f[3].equals("50") ? Tolerance.factor(1.5) : Tolerance.factor(2)))
        .toList();
  }

  /** The rt-app file, its logs in its own directory. */
  static String file(int seconds) {
    return String.join(
        "\n",
        "{",
        "  \"tasks\": {",
        "    \"light\": {\"loop\": -1, \"runtime1\": 1000, \"timer\": {\"ref\": \"light\", \"period\": 10000}},",
        "    \"heavy\": {\"loop\": -1, \"runtime1\": 3000, \"timer\": {\"ref\": \"heavy\", \"period\": 10000}},",
        "    \"waker\": {\"loop\": -1, \"runtime1\": 500, \"resume\": \"sleeper\",",
        "      \"timer\": {\"ref\": \"waker\", \"period\": 20000}},",
        "    \"sleeper\": {\"loop\": -1, \"suspend\": \"sleeper\", \"runtime1\": 200},",
        "    \"locker1\": {\"loop\": -1, \"lock\": \"m\", \"runtime1\": 300, \"unlock\": \"m\",",
        "      \"timer\": {\"ref\": \"l1\", \"period\": 5000}},",
        "    \"locker2\": {\"loop\": -1, \"lock\": \"m\", \"runtime1\": 300, \"unlock\": \"m\",",
        "      \"timer\": {\"ref\": \"l2\", \"period\": 7000}}",
        "  },",
        "  \"global\": {\"duration\": " + seconds + ", \"calibration\": 100,",
        "    \"default_policy\": \"SCHED_OTHER\", \"lock_pages\": false, \"logdir\": \"./\",",
        "    \"log_basename\": \"check\"}",
        "}",
        "");
  }

  private static Path write(Env env) throws HostException {
    try {
      Path dir = Files.createTempDirectory("schedlab-rtapp");
      Path f = dir.resolve("check.json");
      Files.writeString(f, file(env.seconds()), StandardCharsets.UTF_8);
      return f;
    } catch (IOException e) {
      throw new HostException("cannot write the rt-app file: " + e.getMessage(), e);
    }
  }

  @Override
  public Map<String, Double> real(Env env) throws HostException {
    Path f = write(env);
    // rt-app runs in the file's directory (logdir ./); timeout stops it if it overstays.
    Commands.Output o =
        Commands.run(
            List.of(
                "sh",
                "-c",
                "cd '"
                    + f.getParent()
                    + "' && exec "
                    + "timeout -s INT "
                    + (env.seconds() + 30)
                    + " rt-app check.json"),
            env.seconds() + 60L);
    try {
      Map<String, LogParser.LogFile> logs =
          LogParser.readAll(Objects.requireNonNull(f.getParent()), "check");
      if (logs.isEmpty()) {
        throw new HostException(
            "rt-app wrote no logs (exit " + o.exit() + "): " + (o.stderr() + o.stdout()).strip());
      }
      Map<String, List<LogRow>> rows = new LinkedHashMap<>();
      logs.forEach((thread, log) -> rows.put(thread, log.rows()));
      return figures(rows);
    } catch (IOException e) {
      throw new HostException("cannot read rt-app's logs: " + e.getMessage(), e);
    }
  }

  /**
   * The model's rows of seeds 1 to {@value Check#MODEL_SEEDS}, pooled per thread: each seed
   * launches rt-app at another phase of the tick (the real launch's phase is arbitrary and not
   * known), and the phase decides which threads the tick preempts (docs/validation.md, the rt-app
   * heavy task).
   */
  @Override
  public Map<String, Double> model(ModelRunner model, Env env) throws HostException {
    Path f = write(env);
    Map<String, List<LogRow>> pooled = new LinkedHashMap<>();
    for (int seed = 1; seed <= MODEL_SEEDS; seed++) {
      ModelRunner.Outcome o = model.runFile(f, List.of("seed=" + seed));
      RtAppReport r =
          o.scenario().workload().tools().stream()
              .map(ToolRun::report)
              .filter(RtAppReport.class::isInstance)
              .map(RtAppReport.class::cast)
              .findFirst()
              .orElseThrow(() -> new HostException("the model's rt-app run has no rt-app report"));
      r.rows(o.result())
          .forEach(
              (thread, rows) ->
                  pooled.computeIfAbsent(thread, k -> new ArrayList<>()).addAll(rows));
    }
    return figures(pooled);
  }

  private static Map<String, Double> figures(Map<String, List<LogRow>> rows) throws HostException {
    Map<String, Double> m = new LinkedHashMap<>();
    for (String[] f : FIGURES) {
      List<LogRow> thread =
          rows.entrySet().stream()
              .filter(e -> e.getKey().equals(f[1]) || e.getKey().startsWith(f[1] + "-"))
              .map(Map.Entry::getValue)
              .findFirst()
              .orElse(List.of());
      if (thread.isEmpty()) {
        throw new HostException("rt-app's logs have no rows of thread " + f[1]);
      }
      long v = LogStats.percentile(LogStats.column(thread, f[2]), Double.parseDouble(f[3]));
      m.put(f[0], (double) v);
    }
    return m;
  }
}
