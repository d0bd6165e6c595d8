package dev.schedlab.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedlab.lab.scenario.ScenarioException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareTest {
  static final String SCENARIO =
      String.join(
          "\n",
          "duration: 20ms",
          "machine: {sockets: 1, cores_per_socket: 2, threads_per_core: 1, idle_states: poll-only}",
          "kernel: {preempt: voluntary}",
          "workload:",
          "  tools:",
          "    - cyclictest: \"-i 200 -t\"",
          "  tasks:",
          "    - {name: noise, program: [{user: {exp: 300us}}, {sleep: {exp: 200us}}]}",
          "");

  @TempDir Path dir;

  @Test
  void configurationThatChangesNothingGivesZeroChangeAndIdenticalDigests() throws Exception {
    Path f = dir.resolve("s.yaml");
    Files.writeString(f, SCENARIO);
    var runs =
        Batch.run(
            f,
            List.of(),
            List.of(Configuration.baseline(), Configuration.named("same:kernel.preempt=voluntary")),
            1,
            3,
            null,
            Batch.Progress.NONE);
    Comparison c = new Comparison(runs, List.of());
    assertThat(c.sameDigests("same")).isTrue();
    assertThat(runs.get("baseline")).extracting(Batch.Run::seed).containsExactly(1L, 2L, 3L);
    assertThat(c.normalised("same", "report.cyclictest.max")).isEqualTo(1.0);
    assertThat(c.text())
        .contains("| metric", "| baseline", "| same", "digests identical to", "[+0.00%]");
    JsonNode n = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(c.json()));
    assertThat(n.get("same_digests_as_baseline").get("same").asBoolean()).isTrue();
    assertThat(
            n.get("metrics").get("metric.sched.wakeups").get("same").get("normalised").asDouble())
        .isEqualTo(1.0);
  }

  @Test
  void runsInParallelGiveWhatOneThreadGives() throws Exception {
    Path f = dir.resolve("s.yaml");
    Files.writeString(f, SCENARIO);
    List<Configuration> configs =
        List.of(Configuration.baseline(), Configuration.named("full:kernel.preempt=full"));
    Map<String, List<Batch.Run>> one;
    Map<String, List<Batch.Run>> three;
    try (Batch.Pool pool = new Batch.Pool(1, null)) {
      one =
          pool.submit(f, null, List.of(), configs, 1, 4, new Batch.Tally(Batch.Progress.NONE, 8))
              .results();
    }
    try (Batch.Pool pool = new Batch.Pool(3, null)) {
      three =
          pool.submit(f, null, List.of(), configs, 1, 4, new Batch.Tally(Batch.Progress.NONE, 8))
              .results();
    }
    assertThat(three.keySet()).containsExactly("baseline", "full");
    assertThat(three.get("full")).extracting(Batch.Run::seed).containsExactly(1L, 2L, 3L, 4L);
    assertThat(three).isEqualTo(one);
    assertThat(one.get("baseline").get(0).digest())
        .isNotEqualTo(one.get("baseline").get(1).digest());
  }

  @Test
  void aChangeShowsUpNormalisedToTheBaseline() throws Exception {
    Path f = dir.resolve("s.yaml");
    Files.writeString(f, SCENARIO);
    var runs =
        Batch.run(
            f,
            List.of(),
            List.of(
                Configuration.baseline(),
                Configuration.named("slow:kernel.params.cost.ctx_switch_light=5us")),
            1,
            2,
            null,
            Batch.Progress.NONE);
    Comparison c = new Comparison(runs, List.of("cyclictest"));
    assertThat(c.sameDigests("slow")).isFalse();
    assertThat(c.normalised("slow", "report.cyclictest.avg")).isGreaterThan(1.0);
  }

  @Test
  void studentTInterval() {
    Summary s = Summary.of(List.of(1.0, 2.0, 3.0));
    assertThat(s.mean()).isEqualTo(2.0);
    assertThat(s.ci95()).isCloseTo(4.303 * 1.0 / Math.sqrt(3), within(1e-9));
    assertThat(Summary.of(List.of(5.0)).ci95()).isZero();
  }

  @Test
  void pluginSetSyntax() {
    Configuration c = Configuration.pluginSet("a,b:k=v;x=1,k2=v2");
    assertThat(c.plugins()).hasSize(2);
    assertThat(c.plugins().get(0).id()).isEqualTo("a");
    assertThat(c.plugins().get(1).options()).isEqualTo(Map.of("k", "v", "x", "1", "k2", "v2"));
  }

  @Test
  void experimentFileRunsAndGivesTheJsonShape() throws Exception {
    Files.writeString(dir.resolve("s.yaml"), SCENARIO);
    Path e = dir.resolve("x.experiment.yaml");
    Files.writeString(
        e,
        String.join(
            "\n",
            "experiment: x",
            "description: test",
            "scenario: s.yaml",
            "sets: [duration=10ms]",
            "seeds: 2",
            "columns:",
            "  - {name: vol, set: [kernel.preempt=voluntary]}",
            "  - {name: full, set: [kernel.preempt=full]}",
            "rows:",
            "  - {label: max, unit: us, value: \"report:cyclictest.max\", published: [3, null]}",
            "  - {label: wakeups, unit: count, value: \"metric:sched.wakeups\", band: [null, [1, 2.5]]}",
            "  - {label: max vs vol, unit: ratio, value: \"report:cyclictest.max\", ratio_to: vol}",
            "  - {label: worst wakeups, unit: count, value: \"metric:sched.wakeups\", aggregate: max}",
            "notes: [hello]",
            ""));
    assertThat(Experiment.find(dir)).containsExactly(e);
    Experiment x = Experiment.load(e);
    var runs =
        Batch.run(
            x.scenario(),
            x.sets(),
            x.columns(),
            x.firstSeed(),
            x.seeds(),
            null,
            Batch.Progress.NONE);
    ExperimentResult r = new ExperimentResult(x, java.util.Map.of(x.scenario(), runs));
    JsonNode n = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(r.json()));
    assertThat(n.get("experiment").asText()).isEqualTo("x");
    assertThat(n.get("columns")).hasSize(2);
    assertThat(n.get("rows").get(0).get("published").get(0).asDouble()).isEqualTo(3.0);
    // A max row is the largest of the per-seed values, so never below the mean row.
    for (int col = 0; col < 2; col++) {
      double mean = n.get("rows").get(1).get("simulated").get(col).asDouble();
      double max = n.get("rows").get(3).get("simulated").get(col).asDouble();
      double best =
          runs.get(col == 0 ? "vol" : "full").stream()
              .mapToDouble(run -> run.values().get("metric.sched.wakeups"))
              .max()
              .orElseThrow();
      assertThat(max).isEqualTo(best).isGreaterThanOrEqualTo(mean);
    }
    assertThat(n.get("rows").get(0).get("published").get(1).isNull()).isTrue();
    assertThat(n.get("rows").get(1).get("simulated").get(0).asDouble()).isPositive();
    assertThat(n.get("rows").get(2).get("simulated").get(0).asDouble()).isEqualTo(1.0);
    assertThat(n.get("notes").toString()).contains("hello", "duration=10ms");
    assertThat(n.get("rows").get(0).has("band"))
        .as("a row without a band has no band field")
        .isFalse();
    assertThat(n.get("rows").get(1).get("band").toString()).isEqualTo("[null,[1.0,2.5]]");
    assertThat(r.text())
        .contains(
            "## x: test",
            "| max ",
            "(published 3)",
            "(published -)",
            "(published -, band 1-2.500)");
  }

  @Test
  void aBandMustHaveOneEntryPerColumnWithLoNotAboveHi() throws Exception {
    Files.writeString(dir.resolve("s.yaml"), SCENARIO);
    String head =
        String.join(
            "\n",
            "experiment: x",
            "scenario: s.yaml",
            "columns:",
            "  - {name: a}",
            "  - {name: b}",
            "rows:",
            "");
    Path short1 = dir.resolve("one.experiment.yaml");
    Files.writeString(
        short1, head + "  - {label: l, value: \"metric:sched.wakeups\", band: [[1, 2]]}\n");
    assertThatThrownBy(() -> Experiment.load(short1))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("rows[0].band: expected 2 entries (one per column)");
    Path upside = dir.resolve("two.experiment.yaml");
    Files.writeString(
        upside, head + "  - {label: l, value: \"metric:sched.wakeups\", band: [null, [3, 2]]}\n");
    assertThatThrownBy(() -> Experiment.load(upside))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("rows[0].band[1]: expected lo <= hi, got [3, 2]");
  }

  @Test
  void fullLengthReplacesTheShortenedSetsAndSeeds() throws Exception {
    Files.writeString(dir.resolve("s.yaml"), SCENARIO);
    Path e = dir.resolve("f.experiment.yaml");
    String head =
        "experiment: f\nscenario: s.yaml\ncolumns: [{name: a}]\n"
            + "rows: [{label: m, value: \"metric:sched.wakeups\"}]\nsets: [duration=5ms]\nseeds: 1\n";
    Files.writeString(e, head + "full: {sets: [duration=30ms], seeds: 3}\n");
    Experiment x = Experiment.load(e);
    assertThat(x.sets()).containsExactly("duration=5ms");
    Experiment full = x.atFullLength();
    assertThat(full.sets()).containsExactly("duration=30ms");
    assertThat(full.seeds()).isEqualTo(3);
    assertThat(full.with(List.of("kernel.hz=250"), 2).sets())
        .containsExactly("duration=30ms", "kernel.hz=250");
    var runs = Batch.run(x.scenario(), x.sets(), x.columns(), 1, 1, null, Batch.Progress.NONE);
    assertThat(new ExperimentResult(x, Map.of(x.scenario(), runs)).text())
        .contains("reduced for run time: duration=5ms", "reproduce --full");
    var fullRuns =
        Batch.run(x.scenario(), full.sets(), x.columns(), 1, 3, null, Batch.Progress.NONE);
    assertThat(fullRuns.get("a").get(0).simNs()).isEqualTo(30_000_000L);
    assertThat(new ExperimentResult(full, Map.of(x.scenario(), fullRuns)).text())
        .contains("run with: duration=30ms")
        .doesNotContain("reproduce --full");
    // without a full block, --full is the default run
    Files.writeString(e, head);
    assertThat(Experiment.load(e).atFullLength().sets()).containsExactly("duration=5ms");
    Files.writeString(e, head + "full: {seeds: 3, length: 1}\n");
    assertThatThrownBy(() -> Experiment.load(e)).hasMessageContaining("full.length");
  }

  @Test
  void aNonNumericSeedsOrScaleIsRefusedNamingTheFieldInsteadOfReadAsZero() throws Exception {
    Files.writeString(dir.resolve("s.yaml"), SCENARIO);
    Path e = dir.resolve("bad.experiment.yaml");
    String head = "experiment: bad\nscenario: s.yaml\ncolumns: [{name: a, set: []}]\n";
    Files.writeString(
        e, head + "seeds: ten\nrows: [{label: m, value: \"metric:sched.wakeups\"}]\n");
    assertThatThrownBy(() -> Experiment.load(e))
        .hasMessageContaining("bad.experiment.yaml")
        .hasMessageContaining("seeds: expected an integer, got 'ten'");
    Files.writeString(e, head + "rows: [{label: m, value: \"metric:sched.wakeups\", scale: x}]\n");
    assertThatThrownBy(() -> Experiment.load(e))
        .hasMessageContaining("rows[0].scale: expected a number, got 'x'");
  }
}
