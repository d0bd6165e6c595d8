package dev.schedlab.lab.output;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.plugin.PluginEjection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a {@link RunResult} as pretty-printed JSON (snake_case keys, metric keys sorted at every
 * level, {@code \n} line ends: equal results give byte-identical files) or as a short text summary.
 */
public final class ResultWriter {
  /** The JSON writer, made at its first use (a text summary needs no Jackson set-up). */
  private static final class Json {
    static final ObjectWriter WRITER;

    static {
      DefaultIndenter indent = new DefaultIndenter("  ", "\n");
      DefaultPrettyPrinter pretty =
          new DefaultPrettyPrinter().withObjectIndenter(indent).withArrayIndenter(indent);
      // Top-level order is fixed below; metric maps are sorted by sorted(), not by the mapper.
      WRITER =
          new ObjectMapper().disable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).writer(pretty);
    }

    private Json() {}
  }

  private ResultWriter() {}

  /** The JSON text, ending in a newline. */
  public static String toJson(RunResult r) {
    return toJson(r, Map.of());
  }

  /**
   * The JSON text with a {@code reports} object (tool id to its structured report) after the
   * metrics, when {@code reports} is not empty; the other fields are as in {@link
   * #toJson(RunResult)}.
   */
  public static String toJson(RunResult r, Map<String, Object> reports) {
    Map<String, Object> top = new LinkedHashMap<>();
    top.put("schedlab_version", r.schedlabVersion());
    top.put("scenario", r.scenario());
    top.put("seed", r.seed());
    top.put("plugins", r.plugins() == null ? List.of() : r.plugins());
    top.put("digest", r.digest());
    top.put("events", r.events());
    top.put("sim_ns", r.simNs());
    top.put("wall_ns", r.wallNs());
    if (!r.ejections().isEmpty()) {
      top.put("ejections", r.ejections().stream().map(ResultWriter::ejection).toList());
    }
    top.put("metrics", sorted(r.metrics() == null ? Map.of() : r.metrics()));
    if (reports != null && !reports.isEmpty()) {
      top.put("reports", reports);
    }
    try {
      return Json.WRITER.writeValueAsString(top) + "\n";
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "metrics hold a value JSON cannot represent: " + e.getMessage(), e);
    }
  }

  private static Map<String, Object> ejection(PluginEjection e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("plugin", e.plugin());
    m.put("hook", e.hook());
    m.put("sim_ns", e.simNs());
    m.put("reason", e.reason());
    m.put("runqueues", List.of(e.runqueues().split("\n")));
    return m;
  }

  /** Writes the JSON to {@code target} atomically (temporary file and rename). */
  public static void writeJson(RunResult r, Path target) throws IOException {
    writeJson(r, Map.of(), target);
  }

  /** Writes the JSON with tool reports to {@code target} atomically. */
  public static void writeJson(RunResult r, Map<String, Object> reports, Path target)
      throws IOException {
    AtomicFiles.write(target, toJson(r, reports).getBytes(StandardCharsets.UTF_8));
  }

  /** A human summary: run facts, then one line per metric (nested names joined with dots). */
  public static String toText(RunResult r) {
    StringBuilder sb = new StringBuilder();
    row(sb, "scenario", r.scenario());
    row(sb, "seed", Long.toString(r.seed()));
    row(
        sb,
        "plugins",
        r.plugins() == null || r.plugins().isEmpty() ? "-" : String.join(",", r.plugins()));
    row(sb, "simulated", String.format(Locale.ROOT, "%.6f s", r.simNs() / 1e9));
    row(sb, "events", Long.toString(r.events()));
    row(sb, "wall", String.format(Locale.ROOT, "%.3f s", r.wallNs() / 1e9));
    row(sb, "digest", r.digest());
    for (PluginEjection e : r.ejections()) {
      row(sb, "ejected", e.summary());
      String rq = e.runqueues(); // one line per CPU, each ending in a newline
      for (String line :
          rq.substring(0, rq.length() - (rq.endsWith("\n") ? 1 : 0)).split("\n", -1)) {
        sb.append("           ").append(line).append('\n');
      }
    }
    Map<String, String> flat = new TreeMap<>();
    flatten("", sorted(r.metrics() == null ? Map.of() : r.metrics()), flat);
    if (!flat.isEmpty()) {
      int w = flat.keySet().stream().mapToInt(String::length).max().orElse(0);
      sb.append('\n');
      metricRow(sb, w, "metric", "value");
      flat.forEach((k, v) -> metricRow(sb, w, k, v));
    }
    return sb.toString();
  }

  private static void row(StringBuilder sb, String k, String v) {
    padded(sb, k, 10).append(' ').append(v).append(System.lineSeparator());
  }

  /**
   * As {@code String.format("%-" + w + "s %s%n", k, v)}, without parsing a format per line (a
   * 128-CPU run has thousands of metrics, and a short run's JVM interprets the formatter).
   */
  private static void metricRow(StringBuilder sb, int w, String k, String v) {
    padded(sb, k, w).append("  ").append(v).append(System.lineSeparator());
  }

  /** {@code s} left-aligned in {@code width} columns (not cut when longer). */
  private static StringBuilder padded(StringBuilder sb, String s, int width) {
    sb.append(s);
    for (int i = s.length(); i < width; i++) {
      sb.append(' ');
    }
    return sb;
  }

  private static void flatten(String prefix, Object v, Map<String, String> out) {
    if (v instanceof Map) {
      ((Map<?, ?>) v)
          .forEach((k, x) -> flatten(prefix.isEmpty() ? k.toString() : prefix + "." + k, x, out));
    } else if (v instanceof Double || v instanceof Float) {
      out.put(prefix, String.format(Locale.ROOT, "%.3f", ((Number) v).doubleValue()));
    } else {
      out.put(prefix, String.valueOf(v));
    }
  }

  /** A deep copy with every map sorted by key (string order). */
  static Object sorted(Object v) {
    if (v instanceof Map) {
      Map<String, Object> m = new TreeMap<>();
      ((Map<?, ?>) v).forEach((k, x) -> m.put(String.valueOf(k), sorted(x)));
      return m;
    }
    if (v instanceof List) {
      List<Object> l = new ArrayList<>();
      ((List<?>) v).forEach(x -> l.add(sorted(x)));
      return l;
    }
    return v;
  }
}
