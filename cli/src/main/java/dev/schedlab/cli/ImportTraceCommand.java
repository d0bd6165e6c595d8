package dev.schedlab.cli;

import dev.schedlab.traceimport.workload.ImportedTrace;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code schedlab import-trace}: a recorded trace as a scenario that keeps who woke whom. */
@Command(
    name = "import-trace",
    mixinStandardHelpOptions = true,
    description = {
      "Turn a recorded kernel trace (sched_switch, sched_waking/wakeup, fork, exit; interrupt"
          + " events where present) into a scenario: each task replays its runs, the wakeups it"
          + " made, and its blocks (woken by the task that woke it) and sleeps.",
      "Run the scenario with `schedlab run`, or compare it with the trace at once with"
          + " `schedlab replay TRACE`."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:imported",
      "2:bad input: unreadable trace, a line that does not parse"
          + " (the message names it), a machine file with fewer CPUs than the trace"
    })
final class ImportTraceCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;
  @com.google.inject.Inject OutputFiles files;

  @Mixin TraceArgs trace;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "Write the scenario to FILE (atomically) instead of stdout.")
  @Nullable Path out;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    Path dir = out == null ? null : out.toAbsolutePath().getParent();
    ImportedTrace imported = trace.load(dir, err);
    if (out == null) {
      spec.commandLine().getOut().print(imported.scenarioText());
      spec.commandLine().getOut().flush();
      return Main.OK;
    }
    files.write("--out", out, imported.scenarioText());
    if (!trace.quiet) {
      err.println(
          "schedlab import-trace: wrote "
              + out
              + " ("
              + imported.replayed().size()
              + " tasks, "
              + imported.scenario().durationNs() / 1e9
              + " s)");
    }
    return Main.OK;
  }
}
