package dev.schedlab.report.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.report.chart.Chart;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The downsampled timeline of a 10 s run on 128 CPUs stays well under 5 MB even in the worst case
 * for its size: what ran longest changes in every column of every CPU and every column has an
 * interrupt, so no two columns merge.
 */
class TimelineSizeTest {
  @Test
  void aTenSecondRunOf128CpusDrawsInUnderFiveMegabytes() {
    int cpus = 128;
    long tenSeconds = 10_000_000_000L;
    Timeline t = new Timeline(cpus, tenSeconds);
    // One switch per column, to another task group or idle state each time, so no column merges
    // with the next; short task slices in between add slices without changing what dominates.
    long step = tenSeconds / Math.min(1000, Bins.BUDGET / cpus);
    for (long now = 0; now < tenSeconds; now += step) {
      for (int c = 0; c < cpus; c++) {
        int k = (int) ((now / step + c) % 14);
        if (k < 12) {
          t.schedSwitch(now, c, "x", 1, 120, 'R', "task" + k + "/" + c, 1000 + k, 120);
        } else {
          t.schedSwitch(now, c, "x", 1, 120, 'S', "swapper", 0, 120);
          t.cpuIdle(now, c, "<idle>", 0, k - 12);
          t.cpuIdle(now + step - 1, c, "<idle>", 0, -1);
        }
        t.irqEntry(now + 1, c, "x", 1, 0, "timer");
        for (long s = now + step / 2; s < now + step / 2 + 40 * 1000; s += 1000) {
          t.irqEntry(s, c, "x", 1, 0, "timer");
        }
      }
    }
    t.finish(tenSeconds);
    assertThat(t.downsampled()).isTrue();
    Chart chart = TimelineChart.of(t);
    int bytes = chart.svg().getBytes(StandardCharsets.UTF_8).length;
    assertThat(bytes).as("timeline bytes").isLessThan(5_000_000);
    assertThat(chart.svg())
        .contains(
            "class=\"mark cols task\"", "class=\"mark cols idle\"", "class=\"mark cols irq\"");
  }
}
