package dev.schedlab.report.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.lab.output.FtraceWriter;
import dev.schedlab.lab.run.Plugins;
import dev.schedlab.lab.run.RunOutcome;
import dev.schedlab.lab.run.RunSettings;
import dev.schedlab.lab.run.ScenarioRun;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioLoader;
import dev.schedlab.report.SmallRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's way into a run sees what a timeline and a trace file teed by hand see. */
class TimelineRunTest {
  @TempDir Path dir;

  @Test
  void theTimelineAndTheTraceFileGetEveryEventOfTheRun() throws Exception {
    SmallRun byHand = SmallRun.in(dir);
    Scenario s = ScenarioLoader.parse("small.yaml", SmallRun.SCENARIO, true, "small", List.of());
    Path trace = dir.resolve("run.trace");
    Timeline withFile = new Timeline(s.machine().nrCpus(), s.durationNs());
    Timeline alone = new Timeline(s.machine().nrCpus(), s.durationNs());
    RunOutcome traced;
    RunOutcome untraced;
    try (Plugins plugins = Plugins.open(null)) {
      ScenarioRun run = ScenarioRun.prepare(s, plugins);
      FtraceWriter w = FtraceWriter.open(trace, s.machine().nrCpus());
      traced = TimelineRun.run(run, withFile, w, settings());
      w.close();
      untraced = TimelineRun.run(run, alone, null, settings());
    }
    assertThat(traced.result().digest()).isEqualTo(untraced.result().digest());
    assertThat(Files.readString(trace)).isEqualTo(Files.readString(byHand.trace()));
    for (Timeline t : List.of(withFile, alone)) {
      Timeline done = t.finish(traced.simNs());
      assertThat(done.slices()).isEqualTo(byHand.live().slices()).isNotEmpty();
      for (Timeline.Kind k : Timeline.Kind.values()) {
        assertThat(done.count(k)).as(k.name()).isEqualTo(byHand.live().count(k));
      }
    }
  }

  private static RunSettings settings() {
    return new RunSettings(false, false, null);
  }
}
