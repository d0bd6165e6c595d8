package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's idlestat, an independent reader of ftrace text, imports schedlab's trace and finds the
 * same per-CPU idle time as the engine's own accounting. idlestat takes the CPU topology from the
 * host, so the scenario has two CPUs (every machine we run on has at least two).
 */
class IdlestatIT {
  private static final Pattern CPU = Pattern.compile("^,,cpu(\\d+)$");
  private static final Pattern STATE =
      Pattern.compile("^,,,[^,]*,[^,]*,[^,]*,[^,]*,([0-9.]+),(\\d+),.*$");

  private static boolean idlestatPresent() {
    return Files.isExecutable(Path.of("/usr/bin/idlestat"));
  }

  @Test
  void idlestatAgreesWithTheEnginePerCpu(@TempDir Path dir) throws Exception {
    boolean ci = "true".equals(System.getenv("CI"));
    if (!ci) {
      assumeTrue(
          idlestatPresent(),
          "idlestat is not installed: apt-get install idlestat to run this test");
    }
    assertThat(idlestatPresent())
        .as("idlestat must be installed in CI (.ci/run installs it)")
        .isTrue();

    Path scenario = dir.resolve("two.yaml");
    Files.writeString(
        scenario,
        String.join(
            "\n",
            "duration: 50ms",
            "machine: {preset: small-x86, sockets: 1, cores_per_socket: 2, threads_per_core: 1}",
            "workload:",
            "  tasks:",
            "    - {name: ticker, count: 2, program: [{sleep_until: {period: 3ms}}, {user: 200us}]}",
            "    - {name: pair, program: [{user: 100us}, {wake: q}, {sleep: 2ms}]}",
            "    - {name: peer, program: [{block: q}, {user: 50us}]}",
            ""));
    Path trace = dir.resolve("trace.txt");
    Cli run = Cli.run("run", scenario.toString(), "--format", "json", "--trace", trace.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode perCpu = new ObjectMapper().readTree(run.out()).path("metrics").path("per_cpu");

    Map<Integer, Double> idleUs = idlestat(trace);
    assertThat(idleUs).containsOnlyKeys(0, 1);
    for (int cpu = 0; cpu < 2; cpu++) {
      JsonNode c = perCpu.path(String.format("cpu%03d", cpu));
      long closedNs = c.path("idle_ns").asLong() - c.path("idle_open_ns").asLong();
      assertThat(closedNs).isPositive();
      assertThat(idleUs.get(cpu) * 1000.0)
          .as("cpu%d idle", cpu)
          .isCloseTo(closedNs, org.assertj.core.data.Offset.offset(1000.0));
    }
  }

  /** Total idle time per CPU from idlestat's CSV C-state table, in microseconds. */
  private static Map<Integer, Double> idlestat(Path trace)
      throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder("idlestat", "--import", "-f", trace.toString(), "-c", "-C")
            .redirectErrorStream(false)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    Map<Integer, Double> total = new HashMap<>();
    Integer cpu = null;
    for (String line : out.split("\n")) {
      Matcher m = CPU.matcher(line.trim());
      if (m.matches()) {
        cpu = Integer.parseInt(m.group(1));
        total.put(cpu, 0.0);
        continue;
      }
      Matcher s = STATE.matcher(line.trim());
      if (cpu != null && s.matches()) {
        total.merge(cpu, Double.parseDouble(s.group(1)), Double::sum);
      } else if (!line.startsWith(",,,")) {
        cpu = null;
      }
    }
    return total;
  }
}
