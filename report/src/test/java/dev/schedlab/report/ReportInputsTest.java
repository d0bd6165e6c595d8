package dev.schedlab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Inputs are told apart by their content; what cannot be used is refused naming file and line. */
class ReportInputsTest {
  @TempDir Path dir;

  private List<Section> read(Path... p) throws Exception {
    return ReportInputs.read(List.of(p), MatrixView.DEFAULT);
  }

  @Test
  void eachKindIsRecognisedByItsContent() throws Exception {
    SmallRun run = SmallRun.in(dir);
    Path r = Files.writeString(dir.resolve("a.json"), run.json());
    Path c = Files.writeString(dir.resolve("b.json"), SectionFixtures.COMPARE);
    Path x =
        Files.writeString(
            dir.resolve("c.json"), SectionFixtures.REPRODUCE + SectionFixtures.REPRODUCE);
    Path m = SectionFixtures.matrix(dir.resolve("m"));
    List<Section> s = read(r, run.trace(), c, x, m);
    assertThat(s)
        .extracting(Section::kind)
        .containsExactly("run", "compare", "reproduce", "matrix");
    assertThat(s.get(0).body()).contains("data-chart=\"timeline\"");
    assertThat(s.get(2).title()).isEqualTo("Reproduction: demo, demo");
    assertThat(read(r).get(0).body()).doesNotContain("data-chart=\"timeline\"");
    assertThat(read(m.resolve("summary.json")).get(0).kind()).isEqualTo("matrix");
  }

  @Test
  void badInputsAreRefusedWithTheFileLineAndWhatWasExpected() throws Exception {
    SmallRun run = SmallRun.in(dir);
    Path r = Files.writeString(dir.resolve("r.json"), run.json());
    assertThatThrownBy(() -> read(run.trace()))
        .isInstanceOf(ReportInputException.class)
        .hasMessage(
            run.trace()
                + ": a trace must follow the run JSON it belongs to (schedlab report RUN.json TRACE ...)");
    Path broken =
        Files.writeString(dir.resolve("broken.json"), "{\n  \"digest\": \"x\",\n  oops\n}\n");
    assertThatThrownBy(() -> read(broken))
        .isInstanceOf(ReportInputException.class)
        .hasMessageStartingWith(broken + ":3:3: not valid JSON: ");
    Path other = Files.writeString(dir.resolve("other.json"), "{\"hello\": 1}");
    assertThatThrownBy(() -> read(other))
        .hasMessageStartingWith(other + ": not a schedlab result: expected");
    assertThatThrownBy(() -> read(dir.resolve("missing.json")))
        .hasMessage(dir.resolve("missing.json") + ": no such file or directory");
    assertThatThrownBy(() -> read(dir))
        .hasMessage(
            dir
                + ": not a matrix output directory (no summary.json;"
                + " schedlab matrix writes it)");
    Path four =
        Files.writeString(
            dir.resolve("four.trace"), Files.readString(run.trace()).replace("#P:2", "#P:4"));
    assertThatThrownBy(() -> read(r, four))
        .hasMessage(
            four
                + ": the trace has 4 CPUs (#P:) but the run"
                + " before it has 2: not the same run");
  }

  @Test
  void aMatrixValueOrAxisThatDoesNotExistIsNamedWithTheChoices() throws Exception {
    Path m = SectionFixtures.matrix(dir.resolve("m"));
    assertThatThrownBy(() -> ReportInputs.read(List.of(m), new MatrixView("nope", null, null)))
        .hasMessage(
            m + ": no cell has a value named nope; known: events, sim_ns, metric.x, metric.y");
    assertThatThrownBy(() -> ReportInputs.read(List.of(m), new MatrixView(null, "cpu", null)))
        .hasMessage(
            "unknown matrix axis 'cpu': expected one of workload, machine, params, plugins, seed");
  }
}
