package dev.schedlab.cli;

import dev.schedlab.lab.rtapp.RtAppReport;
import dev.schedlab.lab.run.RunOutcome;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.workload.ToolRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code schedlab run}'s rt-app log files: where they go, checked before the run, written after.
 */
final class RtAppLogs {
  private RtAppLogs() {}

  /** The rt-app workloads of {@code s} whose files ask for logs. */
  static List<RtAppReport> reports(Scenario s) {
    List<RtAppReport> out = new ArrayList<>();
    for (ToolRun t : s.workload().tools()) {
      if (t.report() instanceof RtAppReport r && r.plan().log().enabled()) {
        out.add(r);
      }
    }
    return out;
  }

  /** rt-app refuses to start when its logdir does not exist; so does the run, before simulating. */
  static void checkDirs(List<RtAppReport> reports, @Nullable Path override)
      throws OutputFileException {
    for (RtAppReport r : reports) {
      Path dir = r.logDir(override);
      if (!Files.isDirectory(dir)) {
        throw new OutputFileException(
            override != null ? "--rtapp-logdir" : "global.logdir of " + r.plan().file(),
            dir,
            new IOException(
                "log directory does not exist (rt-app" + " requires an existing directory)"));
      }
    }
  }

  static void write(List<RtAppReport> reports, @Nullable Path override, RunOutcome result)
      throws OutputFileException {
    for (RtAppReport r : reports) {
      Path dir = r.logDir(override);
      try {
        result.writeRtAppLogs(r, dir);
      } catch (IOException e) {
        throw new OutputFileException("rt-app logs", dir, e);
      }
    }
  }
}
