package dev.schedlab.host.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rt-app check's file means to the model what it means to the host's rt-app 1.0. */
class RtAppCheckTest {
  @Test
  void theModelsThreadsSetNoCustomSliceAsTheHostsRtAppSetsNone(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("check.json");
    Files.writeString(f, RtAppCheck.file(2));
    Scenario s = ScenarioLoader.load(f);
    List<TaskSpec> threads = s.workload().tasks();
    assertThat(threads)
        .extracting(TaskSpec::name)
        .containsExactly(
            "rt-app", "light-0", "heavy-1", "waker-2", "sleeper-3", "locker1-4", "locker2-5");
    for (TaskSpec t : threads) {
      assertThat(t.program()).as(t.name()).noneMatch(StepSpec.Slice.class::isInstance);
    }
  }
}
