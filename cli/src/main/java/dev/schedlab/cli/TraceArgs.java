package dev.schedlab.cli;

import dev.schedlab.lab.scenario.ScenarioException;
import dev.schedlab.traceimport.TraceInputException;
import dev.schedlab.traceimport.read.Trace;
import dev.schedlab.traceimport.read.TraceFormat;
import dev.schedlab.traceimport.read.TraceReader;
import dev.schedlab.traceimport.workload.ImportOptions;
import dev.schedlab.traceimport.workload.ImportedTrace;
import dev.schedlab.traceimport.workload.TraceImport;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The trace file and how to import it (import-trace, replay). */
final class TraceArgs {
  @Parameters(
      index = "0",
      paramLabel = "TRACE",
      description =
          "Trace text: the tracefs trace file, `trace-cmd report` output or"
              + " `perf sched script` output; see docs/trace-replay.md.")
  Path file;

  @Option(
      names = "--machine",
      paramLabel = "FILE",
      description =
          "Replay on the machine of a machine file (schedlab host writes one); default:"
              + " a generic machine with the trace's CPU count.")
  @Nullable Path machine;

  @Option(
      names = "--autogroups",
      paramLabel = "FILE",
      description =
          "The traced threads' autogroups: 'TID N' lines (N of /autogroup-N in"
              + " /proc/PID/autogroup) taken as the recording starts; each autogroup's tasks"
              + " replay as one task group. Default: all in the root group.")
  @Nullable Path autogroups;

  @Option(
      names = "--input-format",
      paramLabel = "FORMAT",
      description = "ftrace, trace-cmd or perf (default: detected from the file).")
  @Nullable String inputFormat;

  @Option(
      names = "--name",
      paramLabel = "NAME",
      description = "Scenario name (default: the trace file's name without extension).")
  @Nullable String name;

  @Option(
      names = {"-q", "--quiet"},
      description = "No import warnings on stderr.")
  boolean quiet;

  /** Reads and imports the trace; warnings go to {@code err}. */
  ImportedTrace load(@Nullable Path scenarioDir, PrintWriter err)
      throws TraceInputException, ScenarioException {
    TraceFormat format = null;
    if (inputFormat != null) {
      format = TraceFormat.ofLabel(inputFormat);
      if (format == null) {
        throw new TraceInputException(
            "--input-format " + inputFormat + ": expected ftrace, trace-cmd or perf");
      }
    }
    Trace trace = TraceReader.read(file, format);
    ImportedTrace imported =
        TraceImport.of(trace, new ImportOptions(scenarioName(), machine, scenarioDir, autogroups));
    if (!quiet) {
      for (String w : trace.warnings().lines()) {
        err.println("warning: " + w);
      }
      err.flush();
    }
    return imported;
  }

  private String scenarioName() {
    if (name != null) {
      return name;
    }
    String f = file.getFileName() == null ? "trace" : file.getFileName().toString();
    int dot = f.indexOf('.');
    String base = dot > 0 ? f.substring(0, dot) : f;
    return base.isBlank() ? "trace" : base.replaceAll("\\s", "_");
  }
}
