package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.lab.experiment.Configuration;
import dev.schedlab.lab.experiment.Experiment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Each plugin's {@code reproduce} experiment runs in the container, at reduced size. */
@ExtendWith(SchedlabImage.class)
class ContainerReproduceIT {
  @Test
  void eachPluginsExperimentRunsReduced() throws Exception {
    Set<String> plugins = PluginZips.all().keySet();
    List<String> ran = new ArrayList<>();
    for (Path f : Experiment.find(Cli.root().resolve("scenarios"))) {
      Experiment e = Experiment.load(f);
      boolean usesAPlugin =
          e.columns().stream()
              .map(Configuration::plugins)
              .flatMap(List::stream)
              .map(PluginRef::id)
              .anyMatch(plugins::contains);
      if (!usesAPlugin) {
        continue;
      }
      // Reduced: one seed, 50 ms of simulated time per run.
      ContainerCli r =
          ContainerCli.run("reproduce", e.id(), "--seeds", "1", "--set", "duration=50ms", "-q");
      assertThat(r.out()).as(r.err()).startsWith("## " + e.id() + ":").contains("| unit");
      ran.add(e.id());
    }
    assertThat(ran).as("experiments of the plugins " + plugins).isNotEmpty();
  }
}
