package dev.schedlab.examples.wvtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.testkit.Comparison;
import dev.schedlab.testkit.PluginKit;
import dev.schedlab.testkit.TestScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The class in a running kernel: tasks of policy ext on one CPU, with and without the plugin. */
class WeightedVtimePluginTest {
  @RegisterExtension static final PluginKit KIT = PluginKit.of(WeightedVtimePlugin::new);

  private static final TestScenario SHARE =
      TestScenario.builder()
          .duration("2s")
          .machine("preset", "small-x86")
          .task(
              "heavy",
              t -> t.cpus("1").policy("ext").nice(-5).program("{user: 1ms}", "{mark: heavy}"))
          .task("light", t -> t.cpus("1").policy("ext").program("{user: 1ms}", "{mark: light}"))
          .build();

  @Test
  void theClassSchedulesExtTasksByWeight() throws Exception {
    Comparison c = KIT.compare(SHARE, "weighted-vtime:slice=5ms");
    // Weights 3121 (nice -5) and 1024: about three milliseconds of work to one.
    double share = (double) c.patched().metric("mark.heavy") / c.patched().metric("mark.light");
    assertThat(share).isBetween(2.7, 3.4);
    // Without the plugin the tasks fall back to the fair class: another event stream.
    assertThat(c.changed()).isTrue();
  }
}
