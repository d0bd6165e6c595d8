package dev.schedlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schedlab.report.section.RunSection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {
  @TempDir Path dir;

  @Test
  void aRunPageEmbedsItsJsonAndEveryNumberInItIsTheJsonsValue() throws Exception {
    SmallRun run = SmallRun.in(dir);
    Files.writeString(dir.resolve("run.json"), run.json());
    List<Section> sections =
        ReportInputs.read(List.of(dir.resolve("run.json"), run.trace()), MatrixView.DEFAULT);
    String html = HtmlReport.render(sections);
    List<PageCheck.Part> parts = PageCheck.sections(html);
    assertThat(parts).hasSize(1);
    assertThat(parts.get(0).kind()).isEqualTo("run");
    assertThat(parts.get(0).json()).isEqualTo(run.node());
    assertThat(PageCheck.numbersMatch(parts.get(0))).isGreaterThan(100);
    assertThat(html)
        .contains(
            "data-chart=\"timeline\"",
            "data-chart=\"percentiles\"",
            "data-chart=\"histogram\"",
            "data-chart=\"ipis\"",
            "data-chart=\"wakeups\"",
            "data-chart=\"cpu-busy\"");
    // the page the run writes itself (run --report) is the page made from its files
    String live = HtmlReport.render(List.of(RunSection.of(run.node(), run.json(), run.live())));
    assertThat(live).isEqualTo(html);
  }

  @Test
  void thePageFetchesNothingAndTheSameInputGivesTheSameBytes() throws Exception {
    SmallRun run = SmallRun.in(dir);
    String a = HtmlReport.render(List.of(RunSection.of(run.node(), run.json(), run.live())));
    String b = HtmlReport.render(List.of(RunSection.of(run.node(), run.json(), run.live())));
    assertThat(a).isEqualTo(b);
    assertThat(a)
        .contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';");
    assertThat(
            Pattern.compile("(src|href)\\s*=\\s*\"(?!#)", Pattern.CASE_INSENSITIVE)
                .matcher(a)
                .find())
        .as("no src or href other than in-page anchors")
        .isFalse();
    assertThat(a.replace("http://www.w3.org/2000/svg", "")).doesNotContain("http://", "https://");
  }

  @Test
  void scriptLikeTextInTheInputStaysData() throws Exception {
    SmallRun run = SmallRun.in(dir);
    ObjectNode evil = run.node().deepCopy();
    evil.put("scenario", "</script><script>alert(1)</script>");
    String json = new ObjectMapper().writeValueAsString(evil);
    String html = HtmlReport.render(List.of(RunSection.of(evil, json, null)));
    assertThat(html).doesNotContain("<script>alert(1)");
    assertThat(html.split("</script>", -1)).hasSize(3); // the data block and the page script
    assertThat(PageCheck.sections(html).get(0).json().get("scenario").asText())
        .isEqualTo("</script><script>alert(1)</script>");
  }
}
