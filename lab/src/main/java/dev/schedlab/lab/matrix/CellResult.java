package dev.schedlab.lab.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What one cell gave: one line of {@code cells.jsonl}. A failed cell has an {@code error} and no
 * digest. Serializable: a cluster member sends it back to the coordinator.
 *
 * @param runId the cell's run id
 * @param seed the seed used (the scenario's when the matrix has no seeds axis), or null if the
 *     scenario did not load
 * @param digest event-stream digest, or null when failed
 * @param events events processed
 * @param simNs simulated time
 * @param wallMs wall time of the run (informative only)
 * @param error what went wrong, or null
 * @param values numeric results: {@code metric.PATH} and {@code report.ID.PATH}
 * @param ejections the plugins ejected during the run, one summary each (the cell completed, part
 *     of it on mainline)
 */
public record CellResult(
    String runId,
    @Nullable Long seed,
    @Nullable String digest,
    long events,
    long simNs,
    long wallMs,
    @Nullable String error,
    Map<String, Double> values,
    List<String> ejections)
    implements Serializable {
  private static final ObjectMapper JSON = new ObjectMapper();

  public CellResult {
    values = new TreeMap<>(values);
    ejections = List.copyOf(ejections);
  }

  /** A result without ejections. */
  public CellResult(
      String runId,
      @Nullable Long seed,
      @Nullable String digest,
      long events,
      long simNs,
      long wallMs,
      @Nullable String error,
      Map<String, Double> values) {
    this(runId, seed, digest, events, simNs, wallMs, error, values, List.of());
  }

  /** A failed cell. */
  static CellResult failed(String runId, @Nullable Long seed, String error, long wallMs) {
    return new CellResult(runId, seed, null, 0, 0, wallMs, error, Map.of());
  }

  /** Whether the cell ran to completion (possibly after ejecting a plugin). */
  public boolean ok() {
    return error == null;
  }

  /** {@code ok}, {@code ejected} (completed after ejecting a plugin) or {@code failed}. */
  public String status() {
    return !ok() ? "failed" : ejections.isEmpty() ? "ok" : "ejected";
  }

  /** The JSON line for {@code cell} (no line break): descriptive fields, then the result. */
  String toJsonLine(Cell cell, String matrix, String version) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("run_id", runId);
    m.put("matrix", matrix);
    m.put("index", cell.index());
    m.put("workload", cell.workload().label());
    m.put("source", cell.workload().source());
    m.put("machine", cell.machineLabel());
    m.put("params", cell.params().label());
    m.put("overrides", cell.overrides());
    m.put("plugins", cell.pluginsLabel());
    m.put("seed", seed);
    m.put("status", status());
    m.put("error", error);
    if (!ejections.isEmpty()) {
      m.put("ejections", ejections);
    }
    m.put("digest", digest);
    m.put("events", events);
    m.put("sim_ns", simNs);
    m.put("wall_ms", wallMs);
    m.put("version", version);
    m.put("values", values);
    try {
      return JSON.writeValueAsString(m);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads a line written by {@link #toJsonLine}; throws IOException when it is not one. */
  static CellResult fromJsonLine(String line) throws IOException {
    JsonNode n = JSON.readTree(line);
    if (n == null || !n.path("run_id").isTextual() || !n.has("status")) {
      throw new IOException("not a cell line");
    }
    Map<String, Double> values = new TreeMap<>();
    n.path("values").properties().forEach(e -> values.put(e.getKey(), e.getValue().asDouble()));
    boolean ok = !"failed".equals(n.path("status").asText());
    List<String> ejections = new ArrayList<>();
    n.path("ejections").forEach(e -> ejections.add(e.asText()));
    return new CellResult(
        n.get("run_id").asText(),
        n.path("seed").isIntegralNumber() ? n.get("seed").asLong() : null,
        ok ? n.path("digest").asText() : null,
        n.path("events").asLong(),
        n.path("sim_ns").asLong(),
        n.path("wall_ms").asLong(),
        ok ? null : n.path("error").asText("failed"),
        values,
        ejections);
  }
}
