package dev.schedlab.lab.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedlab.engine.output.HistogramJson;
import dev.schedlab.engine.output.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultWriterTest {
  @TempDir Path dir;

  static RunResult result(boolean reverseInsertion) {
    Map<String, Object> metrics = new HashMap<>();
    Map<String, Object> cpu = new HashMap<>();
    String[] keys = {"idle_ns", "busy_ns", "zz_switches", "ipis"};
    for (int i = 0; i < keys.length; i++) {
      String k = keys[reverseInsertion ? keys.length - 1 - i : i];
      cpu.put(k, (long) k.length());
    }
    metrics.put("per_cpu", Map.of("cpu0", cpu));
    metrics.put("context_switches", 1234L);
    metrics.put("util", 0.5);
    Histogram h = new Histogram(3);
    for (long v = 1_000; v <= 100_000; v += 1_000) {
      h.recordValue(v);
    }
    metrics.put("wakeup_latency_ns", HistogramJson.of(h));
    return new RunResult(
        "0.1.0",
        "quickstart",
        1,
        List.of("a", "b"),
        "abcd",
        99,
        1_000_000_000L,
        5_000_000L,
        metrics);
  }

  @Test
  void byteIdenticalForEqualResults() {
    String a = ResultWriter.toJson(result(false));
    String b = ResultWriter.toJson(result(true));
    assertThat(a).isEqualTo(b);
    assertThat(a).doesNotContain("\r").endsWith("}\n");
  }

  @Test
  void parsesBackWithSnakeCaseAndSortedMetrics() throws Exception {
    Path out = dir.resolve("r.json");
    ResultWriter.writeJson(result(false), out);
    JsonNode n = new ObjectMapper().readTree(Files.readString(out));
    assertThat(n.fieldNames())
        .toIterable()
        .containsExactly(
            "schedlab_version",
            "scenario",
            "seed",
            "plugins",
            "digest",
            "events",
            "sim_ns",
            "wall_ns",
            "metrics");
    assertThat(n.get("metrics").fieldNames())
        .toIterable()
        .containsExactly("context_switches", "per_cpu", "util", "wakeup_latency_ns");
    assertThat(n.at("/metrics/per_cpu/cpu0").fieldNames())
        .toIterable()
        .containsExactly("busy_ns", "idle_ns", "ipis", "zz_switches");
    JsonNode lat = n.at("/metrics/wakeup_latency_ns");
    assertThat(lat.fieldNames())
        .toIterable()
        .containsExactly("count", "max", "mean", "min", "p50", "p90", "p99", "p99.9", "stddev");
    assertThat(lat.get("count").asLong()).isEqualTo(100);
    assertThat(lat.get("min").asLong()).isEqualTo(1_000);
    assertThat(lat.get("p50").asLong()).isBetween(49_900L, 50_100L);
    assertThat(lat.get("max").asLong()).isBetween(99_900L, 100_100L);
    assertThat(n.get("sim_ns").asLong()).isEqualTo(1_000_000_000L);
    try (var files = Files.list(dir)) {
      assertThat(files).containsExactly(out);
    }
  }

  @Test
  void emptyHistogram() {
    Map<String, Object> m = HistogramJson.of(new Histogram(3));
    assertThat(m).containsEntry("count", 0L).containsEntry("p99.9", 0L).containsEntry("mean", 0.0);
  }

  @Test
  void textSummary() {
    String t = ResultWriter.toText(result(false));
    assertThat(t)
        .contains("scenario   quickstart")
        .contains("plugins    a,b")
        .contains("simulated  1.000000 s")
        .contains("per_cpu.cpu0.busy_ns")
        .contains("wakeup_latency_ns.p99.9")
        .contains("util")
        .contains("0.500");
  }
}
