package dev.schedlab.host.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.host.HostDescription;
import dev.schedlab.host.HostDetector;
import dev.schedlab.host.MachineFileWriter;
import dev.schedlab.host.ModelRunner;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * hackbench's figures are medians: a run's time depends on how senders and receivers interleave, so
 * the model's is the median over its seeds, not seed 1's.
 */
class HackbenchCheckTest {
  @TempDir Path root;

  @Test
  void theModelsTimesAreTheMediansOverItsSeeds() throws Exception {
    HostDescription h = HostDetector.describe(root); // a default machine
    ModelRunner model = ModelRunner.on(MachineFileWriter.write(h, "test"));
    Env quick = new Env(1, true, false, h.nrCpus());
    double[] g1 = new double[Check.MODEL_SEEDS];
    for (int seed = 1; seed <= g1.length; seed++) {
      g1[seed - 1] = HackbenchCheck.time(model, 1, 100, seed);
    }
    Map<String, Double> figures = new HackbenchCheck().model(model, quick);
    assertThat(figures.get("time g=1")).isEqualTo(HackbenchCheck.median(g1));
    assertThat(java.util.Arrays.stream(g1).distinct().count()).isGreaterThan(1); // seeds differ
  }

  @Test
  void theMedianOfAnOddOrEvenCount() {
    assertThat(HackbenchCheck.median(new double[] {0.3, 0.1, 0.2})).isEqualTo(0.2);
    assertThat(HackbenchCheck.median(new double[] {0.4, 0.1, 0.2, 0.3})).isEqualTo(0.25);
  }
}
