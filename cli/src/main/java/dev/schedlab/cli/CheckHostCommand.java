package dev.schedlab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schedlab.host.HostDescription;
import dev.schedlab.host.HostDetector;
import dev.schedlab.host.HostException;
import dev.schedlab.host.HostFiles;
import dev.schedlab.host.LoadAverage;
import dev.schedlab.host.MachineFileWriter;
import dev.schedlab.host.ModelRunner;
import dev.schedlab.host.calibrate.Calibration;
import dev.schedlab.host.calibrate.Calibrator;
import dev.schedlab.host.check.Check;
import dev.schedlab.host.check.CheckHost;
import dev.schedlab.host.check.CheckTable;
import dev.schedlab.host.check.Env;
import dev.schedlab.host.check.Row;
import dev.schedlab.host.check.StressNgVersion;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code schedlab check-host}: the model against this machine's kernel, with the real tools. */
@Command(
    name = "check-host",
    mixinStandardHelpOptions = true,
    description = {
      "Run the validation suite with the real tools on this machine and the same workloads in "
          + "the model on its machine file, and print one table: workload, figure, real, "
          + "simulated, ratio, tolerance, verdict. Without --machine the machine is described "
          + "and calibrated first (schedlab host --calibrate).",
      "Needs rt-tests, stress-ng and linux-perf; a missing tool skips its rows, a missing "
          + "privilege marks them. Every workload runs on the host first, then in the model; "
          + "interrupted, it prints what it measured (its host figures, and the rows that are "
          + "complete)."
    })
final class CheckHostCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;
  @com.google.inject.Inject java.time.InstantSource clock;
  @com.google.inject.Inject OutputFiles files;

  @Option(
      names = "--machine",
      paramLabel = "FILE",
      description = "The machine file to simulate (default: describe and calibrate this machine).")
  @Nullable Path machine;

  @Option(names = "--quick", description = "Short runs (2 s each, fewer loops): CI, a first look.")
  boolean quick;

  @Option(
      names = "--seconds",
      paramLabel = "N",
      description = "Length of each timed run (default 10, or 2 with --quick).")
  @Nullable Integer seconds;

  @Option(
      names = "--only",
      paramLabel = "REGEX",
      description = "Run only the workloads whose name matches REGEX.")
  @Nullable String only;

  @Option(
      names = "--host-figures",
      paramLabel = "JSON",
      description =
          "Take the host's figures from an earlier check-host JSON (--out) instead of "
              + "running the tools again: the same measurements against another machine file.")
  @Nullable Path hostFigures;

  @Option(names = "--format", defaultValue = "text", description = "text or json.")
  Format format;

  @Option(names = "--out", paramLabel = "FILE", description = "Also write the JSON to FILE.")
  @Nullable Path out;

  @Option(
      names = {"-q", "--quiet"},
      description = "No progress on stderr.")
  boolean quiet;

  enum Format {
    text,
    json
  }

  private final List<Row> rows = new ArrayList<>();

  /** Workloads measured on the host whose rows are not complete yet, in suite order. */
  private final Map<Check, List<Row>> pending = new LinkedHashMap<>();

  private volatile boolean finished;

  /** The release of the stress-ng that measured the host's figures, null when not known. */
  private volatile @Nullable StressNgVersion stressNg;

  @Override
  public Integer call() throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    HostDescription host = HostDetector.describe(Path.of("/"));
    if (hostFigures == null || machine == null) {
      LoadAverage.busyWarning(new HostFiles(Path.of("/")), host.nrCpus())
          .ifPresent(w -> err.println("schedlab check-host: " + w));
    }
    ModelRunner model;
    try {
      model = machine != null ? new ModelRunner(machine) : ModelRunner.on(calibrated(host, err));
    } catch (HostException e) {
      err.println("schedlab check-host: " + e.getMessage());
      return Main.RUN_FAILED;
    }
    Map<String, Map<String, Double>> earlierFigures =
        hostFigures == null ? null : earlier(hostFigures);
    stressNg = hostFigures == null ? StressNgVersion.detect() : earlierStressNg(hostFigures);
    Env env =
        new Env(
            seconds != null ? seconds : quick ? 2 : 10, quick, isRoot(), host.nrCpus(), stressNg);
    List<Check> suite = new ArrayList<>(CheckHost.suite(env));
    if (only != null) {
      Pattern p = Pattern.compile(only);
      suite.removeIf(c -> !p.matcher(c.name()).find());
    }
    Thread onExit =
        new Thread(
            () -> {
              if (!finished) {
                emit(stdout, true);
              }
            },
            "check-host-partial");
    Runtime.getRuntime().addShutdownHook(onExit);
    if (format == Format.text) {
      stdout.print(CheckTable.header());
      stdout.flush();
    }
    Progress progress = new Progress(err, quiet, "check-host", clock);
    CheckHost.run(
        suite,
        model,
        env,
        earlierFigures,
        new CheckHost.Listener() {
          @Override
          public void starting(int index, int total, String what) {
            progress.step(index, total, "steps", what);
          }

          @Override
          public void measured(Check check, Map<String, Double> real, @Nullable String why) {
            synchronized (rows) {
              pending.put(check, CheckHost.pending(check, real, why));
            }
          }

          @Override
          public void rows(List<Row> done) {
            synchronized (rows) {
              rows.addAll(done);
              if (!done.isEmpty()) {
                pending.keySet().removeIf(c -> c.name().equals(done.get(0).workload()));
              }
            }
            if (format == Format.text) {
              stdout.print(CheckTable.text(done));
              stdout.flush();
            }
          }
        });
    progress.step(1, 1, "steps", "done");
    finished = true;
    Runtime.getRuntime().removeShutdownHook(onExit);
    emit(stdout, false);
    return Main.OK;
  }

  /** The end of the output: the summary (text) or the whole JSON, and --out. */
  private void emit(PrintWriter stdout, boolean interrupted) {
    List<Row> copy;
    synchronized (rows) {
      copy = new ArrayList<>(rows);
      pending.values().forEach(copy::addAll); // measured on the host, model not run yet
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("interrupted", interrupted);
    json.put("summary", CheckTable.summary(copy).strip());
    StressNgVersion v = stressNg;
    json.put("stress_ng_version", v == null ? null : v.text());
    json.put("rows", CheckTable.json(copy));
    String text;
    try {
      text =
          new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(json)
              + "\n";
    } catch (IOException e) {
      text = "{}\n";
    }
    if (format == Format.json) {
      stdout.print(text);
    } else {
      stdout.print((interrupted ? "interrupted: " : "") + CheckTable.summary(copy));
      stdout.println(stressNgLine(v));
    }
    stdout.flush();
    if (out != null) {
      try {
        files.write(out, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      } catch (IOException e) {
        spec.commandLine()
            .getErr()
            .println("schedlab check-host: --out: cannot write " + out + ": " + e.getMessage());
      }
    }
  }

  /** What the model's stress-ng ran as, for the end of the text output. */
  static String stressNgLine(@Nullable StressNgVersion v) {
    return v == null
        ? "stress-ng of the host's figures: not known (not found, or an earlier JSON that did not "
            + "record it); the model's stress-ng ran its default release"
        : "stress-ng of the host's figures: "
            + v.text()
            + "; the model's stress-ng ran as it (params.version "
            + v.modelVersion()
            + ")";
  }

  /** The stress-ng release an earlier run's JSON recorded, null when absent (older files). */
  private static @Nullable StressNgVersion earlierStressNg(Path json) throws IOException {
    JsonNode v = new ObjectMapper().readTree(json.toFile()).path("stress_ng_version");
    return v.isTextual() ? StressNgVersion.parse("stress-ng, version " + v.asText()) : null;
  }

  /** The real figures of an earlier run's JSON, by workload and figure. */
  private static Map<String, Map<String, Double>> earlier(Path json) throws IOException {
    Map<String, Map<String, Double>> out = new LinkedHashMap<>();
    for (JsonNode r : new ObjectMapper().readTree(json.toFile()).path("rows")) {
      if (r.path("real").isNumber()) {
        out.computeIfAbsent(r.path("workload").asText(), k -> new LinkedHashMap<>())
            .put(r.path("figure").asText(), r.path("real").asDouble());
      }
    }
    return out;
  }

  private String calibrated(HostDescription host, PrintWriter err) throws HostException {
    Progress progress = new Progress(err, quiet, "calibrating", clock);
    Calibration c =
        Calibrator.calibrate(
            host,
            VersionProvider.version(),
            quick,
            (done, total, what) -> progress.step(done, total, "steps", what));
    progress.step(1, 1, "steps", "done");
    return MachineFileWriter.write(
        host, c.params(), c.toolParams(), c.noise(), VersionProvider.version());
  }

  private static boolean isRoot() {
    return new HostFiles(Path.of("/"))
        .text("/proc/self/status")
        .map(
            s -> {
              for (String line : s.split("\n", -1)) {
                if (line.startsWith("Uid:")) {
                  return line.substring(4).trim().split("\\s+", -1)[1].equals("0"); // effective uid
                }
              }
              return false;
            })
        .orElse(false);
  }
}
