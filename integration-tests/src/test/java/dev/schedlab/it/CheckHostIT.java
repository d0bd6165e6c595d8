package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code schedlab check-host --quick} on the machine the tests run on: it describes and calibrates
 * the machine, runs the suite with the real tools and in the model, and every row has a real and a
 * simulated number. Whether a figure lies within its tolerance is not asserted: CI machines are
 * shared and noisy (docs/validation.md has the figures of a quiet run).
 */
class CheckHostIT {
  private static final List<String> TOOLS =
      List.of("cyclictest", "hackbench", "stress-ng", "perf", "rt-app", "cc");

  private static boolean present(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      if (Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }

  @Test
  void theQuickSuiteGivesEveryFigureOnBothSides(@TempDir Path dir) throws Exception {
    boolean ci = "true".equals(System.getenv("CI"));
    boolean all = TOOLS.stream().allMatch(CheckHostIT::present);
    if (!ci) {
      assumeTrue(
          all,
          "check-host needs rt-tests, stress-ng, linux-perf, rt-app and a C compiler: "
              + "apt-get install rt-tests stress-ng linux-perf rt-app gcc to run this test");
    }
    assertThat(all).as("CI must have " + TOOLS + " (.ci/run installs them)").isTrue();

    Path machine = dir.resolve("host.yaml");
    Cli host = Cli.run("host", "--calibrate", "--quick", "--quiet", "--out", machine.toString());
    assertThat(host.exitCode()).as(host.err()).isZero();
    assertThat(Files.readString(machine)).contains("calibrated: schedlab-probe");

    Cli check =
        Cli.run(
            "check-host",
            "--machine",
            machine.toString(),
            "--quick",
            "--quiet",
            "--format",
            "json");
    assertThat(check.exitCode()).as(check.err()).isZero();
    JsonNode json = new ObjectMapper().readTree(check.out());
    assertThat(json.path("interrupted").asBoolean()).isFalse();
    JsonNode rows = json.path("rows");
    assertThat(rows.size()).isGreaterThanOrEqualTo(45); // 14 workloads, 2 to 7 figures each
    boolean root = "root".equals(System.getProperty("user.name"));
    for (JsonNode r : rows) {
      String what =
          r.path("workload").asText()
              + " "
              + r.path("figure").asText()
              + ": "
              + r.path("verdict").asText();
      if (!root && r.path("verdict").asText().startsWith("needs root")) {
        continue;
      }
      assertThat(r.path("real").isNumber()).as(what).isTrue();
      assertThat(r.path("simulated").isNumber()).as(what).isTrue();
      assertThat(r.path("real").asDouble()).as(what).isFinite().isGreaterThanOrEqualTo(0);
      assertThat(r.path("simulated").asDouble()).as(what).isFinite().isGreaterThanOrEqualTo(0);
      if (r.path("unit").asText().equals("us") || r.path("unit").asText().equals("s")) {
        assertThat(r.path("real").asDouble()).as(what).isPositive();
        assertThat(r.path("simulated").asDouble()).as(what).isPositive();
      }
    }
    assertThat(json.path("summary").asText()).contains("figures measured");
  }
}
