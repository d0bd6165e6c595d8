package dev.schedlab.report.section;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedlab.report.HtmlReport;
import dev.schedlab.report.MatrixView;
import dev.schedlab.report.Section;
import dev.schedlab.report.SectionFixtures;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SectionsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;

  private static List<String> texts(String html, String cls) {
    Matcher m = Pattern.compile("class=\"" + cls + "\"[^>]*>([^<]*)<").matcher(html);
    List<String> out = new java.util.ArrayList<>();
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  @Test
  void aComparisonChartsTheMetricsThatChangedWithTheirIntervals() throws Exception {
    JsonNode cmp = JSON.readTree(SectionFixtures.COMPARE);
    Section s = CompareSection.of(cmp, SectionFixtures.COMPARE);
    String body = s.body();
    assertThat(body)
        .contains(
            "data-chart=\"differences\"",
            "data-chart=\"percentiles\"",
            "metric.latency.wake: percentiles by configuration");
    // changed: max -50%, p50 -25%, p90 -25%; unchanged: min, wakeups; baseline 0: spin.started
    assertThat(texts(body, "val")).containsExactly("-50.00%", "-25.00%", "-25.00%");
    assertThat(body)
        .contains(
            "2 metrics with means equal to the baseline&#39;s, 1 with a baseline mean of 0 and 0 histogram buckets");
    // the whisker of max: sqrt(30^2 + 50^2) / 900 = 6.48 %
    assertThat(body).contains("spin, metric.latency.wake.max: -50.00% \u00b1 6.48%");
    assertThat(body)
        .contains("<span data-ptr=\"/metrics/metric.spin.started/spin/mean\">35.6667</span>");
  }

  @Test
  void aReproductionShadesTheBandAndMarksTheSimulatedValueInOrOut() throws Exception {
    List<JsonNode> exps = List.of(JSON.readTree(SectionFixtures.REPRODUCE));
    Section s = ReproduceSection.of(exps, "[" + SectionFixtures.REPRODUCE + "]");
    assertThat(s.body())
        .contains(
            "data-chart=\"reproduction\"",
            "patched band 0.72 to 0.88",
            "<td class=\"num in\" data-sort=\"0.784401\"><span data-ptr=\"/0/rows/0/simulated/1\">0.784401</span>",
            "<td class=\"num\">0.72 to 0.88</td>",
            "<li>a note</li>");
    assertThat(Pattern.compile("class=\"mark band\"").matcher(s.body()).results().count())
        .isEqualTo(1);
    assertThat(Pattern.compile("class=\"mark pub\"").matcher(s.body()).results().count())
        .isEqualTo(2);
    assertThat(Pattern.compile("class=\"mark pt\"").matcher(s.body()).results().count())
        .isEqualTo(3);
  }

  @Test
  void aMatrixHeatmapAveragesSeedsPerCellAndLeavesFailedCellsOut() throws Exception {
    Path m = SectionFixtures.matrix(dir.resolve("m"));
    Section s = MatrixSection.read(m, MatrixView.DEFAULT);
    // the two axes that vary besides seed: workload across, plugins down
    assertThat(s.body()).contains("metric.x by workload and plugins");
    // (a, none) = mean(10.1, 10.2); (b, all) = 21.1 only: seed 2 failed
    assertThat(texts(s.body(), "hm-text")).containsExactly("10.15", "20.15", "11.15", "21.1");
    assertThat(s.body()).contains("b / all: 21.1 (mean of 1 cell)", "run failed: boom");
  }

  @Test
  void aMatrixValueFromCellsJsonlIsAddedToTheEmbeddedSummary() throws Exception {
    Path m = SectionFixtures.matrix(dir.resolve("m"));
    Section s = MatrixSection.read(m, new MatrixView("metric.y", "plugins", "workload"));
    assertThat(s.body()).contains("metric.y by plugins and workload");
    assertThat(texts(s.body(), "hm-text")).containsExactly("1015", "1115", "2015", "2110");
    JsonNode embedded = JSON.readTree(s.json());
    assertThat(embedded.at("/cells/0/values/metric.y").asDouble()).isEqualTo(1010.0);
    assertThat(embedded.at("/cells/7/values").has("metric.y")).isFalse();
    assertThat(HtmlReport.render(List.of(s)))
        .contains("data-ptr=\"/cells/0/values/metric.y\">1010<");
  }
}
