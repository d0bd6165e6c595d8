package dev.schedlab.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.schedlab.engine.config.CgroupSpec;
import dev.schedlab.lab.rtapp.LogRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** rt-app's {@code taskgroup} keys become cpu-controller groups the fair class schedules. */
class RtAppTaskGroupsTest {
  @TempDir Path dir;

  private Path write(String name, String text) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, text);
    return f;
  }

  /** One hog in /a and three in {@code groupOfThree} ("": the root), all on CPU 0. */
  private Path hogs(String groupOfThree) throws Exception {
    String hog = "{\"loop\": -1, \"cpus\": [0], \"run\": 1000%s}";
    String three = groupOfThree.isEmpty() ? "" : ", \"taskgroup\": \"" + groupOfThree + "\"";
    return write(
        "tg.json",
        "{\"tasks\": {\"alone\": "
            + String.format(hog, ", \"taskgroup\": \"/a\"")
            + ", \"many\": "
            + String.format(hog, ", \"instance\": 3" + three)
            + "}, \"global\": {\"duration\": 1, \"calibration\": 20, \"logdir\": \"./\"}}");
  }

  @Test
  void aTaskgroupPathMakesItsGroupsUnderTheirParents() throws Exception {
    Scenario s = ScenarioLoader.load(hogs("//a/b/"));
    assertThat(s.kernel().cgroups())
        .containsExactly(
            new CgroupSpec("a", "", 100, -1, 100_000_000L, List.of("alone-0")),
            new CgroupSpec(
                "a/b", "a", 100, -1, 100_000_000L, List.of("many-1", "many-2", "many-3")));
  }

  @Test
  void groupsShareTheCpuBeforeTheirThreadsDo() throws Exception {
    // Flat, the four hogs get a quarter each; with the three in a group of their own beside
    // the one in /a, each group gets half and the one hog as much as the three together.
    Map<String, List<LogRow>> flat = rows(ScenarioLoader.load(hogs("")));
    Map<String, List<LogRow>> grouped = rows(ScenarioLoader.load(hogs("/b")));
    long flatAlone = flat.get("alone-0").size();
    long flatMany = flat.get("many-1").size();
    assertThat((double) flatAlone).isCloseTo(flatMany, withinPercentage(5));
    long alone = grouped.get("alone-0").size();
    long many =
        grouped.get("many-1").size() + grouped.get("many-2").size() + grouped.get("many-3").size();
    assertThat((double) alone).isCloseTo(many, withinPercentage(5));
    assertThat((double) alone).isCloseTo(2.0 * flatAlone, withinPercentage(5));
  }

  @Test
  void aTaskgroupNamedAlsoInKernelCgroupsIsRefused() throws Exception {
    Path rt = hogs("/b");
    Path scenario =
        write(
            "s.yaml",
            "name: s\nduration: 10ms\nkernel:\n  cgroups:\n    a: {weight: 100}\n"
                + "workload:\n  rtapp: tg.json\n");
    assertThat(rt).exists();
    assertThatThrownBy(() -> ScenarioLoader.load(scenario))
        .hasMessageContaining("taskgroup /a is also a cgroup of kernel.cgroups");
  }

  private static Map<String, List<LogRow>> rows(Scenario s) throws Exception {
    return RtAppFixtures.report(s).rows(RtAppFixtures.run(s));
  }
}
