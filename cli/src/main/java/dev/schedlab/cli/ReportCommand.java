package dev.schedlab.cli;

import dev.schedlab.report.MatrixView;
import dev.schedlab.report.ReportInputs;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code schedlab report}: one self-contained HTML page from results. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = {
      "Make one self-contained HTML page (charts drawn as SVG, the input JSON"
          + " embedded, no network needed to open it) from results: a run's JSON (run --format json"
          + " or --out), optionally followed by its ftrace text trace (run --trace) for the per-CPU"
          + " timeline; a compare JSON; a reproduce JSON; a matrix output directory."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:written",
      "1:internal error",
      "2:bad input (the message names the file and" + " line) or the output cannot be written"
    })
final class ReportCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      paramLabel = "INPUT",
      arity = "1..*",
      description = "RUN.json [TRACE], COMPARE.json, REPRODUCE.json or MATRIX-DIR; in page order.")
  List<Path> inputs;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      required = true,
      description = "The HTML file to write (atomically).")
  Path out;

  @Option(
      names = "--value",
      paramLabel = "NAME",
      description =
          "Matrix heatmap value: a summary column, events, sim_ns or any value of"
              + " cells.jsonl such as metric.sched.context_switches (default: the first summary column).")
  @Nullable String value;

  @Option(
      names = "--axes",
      paramLabel = "X,Y",
      description =
          "Matrix heatmap axes, across and down: workload, machine, params, plugins or"
              + " seed (default: the two axes with the most levels; seeds are averaged).")
  @Nullable String axes;

  @Override
  public Integer call() throws Exception {
    String x = null;
    String y = null;
    if (axes != null) {
      String[] xy = axes.split(",", -1);
      if (xy.length != 2 || xy[0].isBlank() || xy[1].isBlank()) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--axes: expected X,Y, got " + axes);
      }
      x = xy[0].trim();
      y = xy[1].trim();
    }
    var sections = ReportInputs.read(inputs, new MatrixView(value, x, y));
    ReportFile.write("--out", out, sections);
    spec.commandLine().getOut().println("wrote " + out);
    spec.commandLine().getOut().flush();
    return Main.OK;
  }
}
