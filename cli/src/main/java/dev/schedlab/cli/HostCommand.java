package dev.schedlab.cli;

import dev.schedlab.host.HostDescription;
import dev.schedlab.host.HostDetector;
import dev.schedlab.host.HostException;
import dev.schedlab.host.HostFiles;
import dev.schedlab.host.LoadAverage;
import dev.schedlab.host.MachineFileWriter;
import dev.schedlab.host.calibrate.Calibration;
import dev.schedlab.host.calibrate.Calibrator;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code schedlab host}: this machine as a machine file, optionally with calibrated costs. */
@Command(
    name = "host",
    mixinStandardHelpOptions = true,
    description = {
      "Describe the machine schedlab runs on as a machine file (topology, cpuidle driver, states "
          + "and governor, virtualisation, HZ, preemption model, isolated CPUs, mitigations), each "
          + "value with its source. Use it with `run SCENARIO --machine FILE`.",
      "With --calibrate, also measure this machine's costs with small micro-benchmarks (seconds; "
          + "needs a C compiler) and set them in the file."
    })
final class HostCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;
  @com.google.inject.Inject java.time.InstantSource clock;
  @com.google.inject.Inject OutputFiles files;

  @Option(names = "--calibrate", description = "Measure the costs the model takes from the host.")
  boolean calibrate;

  @Option(names = "--quick", description = "Fewer samples per measurement (CI, a first look).")
  boolean quick;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "Write the machine file to FILE (atomically) instead of stdout.")
  @Nullable Path out;

  @Option(
      names = "--root",
      paramLabel = "DIR",
      hidden = true,
      description = "Read /sys and /proc under DIR (a fixture tree); no calibration then.")
  @Nullable Path root;

  @Option(
      names = {"-q", "--quiet"},
      description = "No progress on stderr.")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    HostDescription host = HostDetector.describe(root == null ? Path.of("/") : root);
    Calibration calibration = null;
    if (calibrate) {
      if (root != null) {
        err.println("schedlab host: --calibrate measures this machine; it cannot go with --root");
        return Main.BAD_INPUT;
      }
      LoadAverage.busyWarning(new HostFiles(Path.of("/")), host.nrCpus())
          .ifPresent(w -> err.println("schedlab host: " + w));
      Progress progress = new Progress(err, quiet, "calibrating", clock);
      try {
        calibration =
            Calibrator.calibrate(
                host,
                VersionProvider.version(),
                quick,
                (done, total, what) -> progress.step(done, total, "steps", what));
      } catch (HostException e) {
        err.println("schedlab host: calibration failed: " + e.getMessage());
        return Main.RUN_FAILED;
      }
      progress.step(1, 1, "steps", "done");
      if (!quiet) {
        printChecks(err, calibration);
      }
    }
    String text =
        calibration == null
            ? MachineFileWriter.write(host, VersionProvider.version())
            : MachineFileWriter.write(
                host,
                calibration.params(),
                calibration.toolParams(),
                calibration.noise(),
                VersionProvider.version());
    if (out == null) {
      spec.commandLine().getOut().print(text);
      spec.commandLine().getOut().flush();
      return Main.OK;
    }
    files.write("--out", out, text);
    if (!quiet) {
      err.println("schedlab host: wrote " + out);
    }
    return Main.OK;
  }

  /** The micro-benchmarks, real beside the calibrated model. */
  private static void printChecks(PrintWriter err, Calibration c) {
    err.println();
    err.printf(
        Locale.ROOT,
        "%-44s %12s %12s %7s  %s%n",
        "micro-benchmark",
        "real",
        "model",
        "ratio",
        "sets");
    for (Calibration.Check k : c.checks()) {
      double ratio = k.realNs() == 0 ? Double.NaN : (double) k.modelNs() / k.realNs();
      err.printf(
          Locale.ROOT,
          "%-44s %12d %12d %7.2f  %s%n",
          k.figure(),
          k.realNs(),
          k.modelNs(),
          ratio,
          k.setsParam().isEmpty() ? "(prediction)" : k.setsParam());
    }
    err.flush();
  }
}
