package dev.schedlab.lab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.lab.scenario.ScenarioException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A declarative experiment ({@code scenarios/*.experiment.yaml}, format in docs/workloads.md): a
 * scenario, named columns (plugin sets and/or overrides), rows (label, unit, value path, optional
 * ratio to another column, published values) and notes.
 *
 * @param id experiment id
 * @param description one line
 * @param file where it was read from
 * @param scenario the scenario file, resolved
 * @param sets overrides for every column (size reductions)
 * @param firstSeed first seed
 * @param seeds number of seeds
 * @param columns the configurations
 * @param rows the rows
 * @param notes notes printed with the table
 * @param full the overrides and seed count of {@code reproduce --full}: the seed's own run length
 *     and sample count, where {@code sets} and {@code seeds} shorten the default run
 */
public record Experiment(
    String id,
    String description,
    Path file,
    Path scenario,
    List<String> sets,
    long firstSeed,
    int seeds,
    List<Configuration> columns,
    List<Row> rows,
    List<String> notes,
    Full full) {

  /**
   * The full-length run: {@code sets} replace the experiment's, {@code seeds} its seed count.
   *
   * @param sets overrides for every column at full length
   * @param seeds number of seeds at full length
   */
  public record Full(List<String> sets, int seeds) {}

  /** The experiment as {@code reproduce --full} runs it. */
  public Experiment atFullLength() {
    return new Experiment(
        id,
        description,
        file,
        scenario,
        full.sets(),
        firstSeed,
        full.seeds(),
        columns,
        rows,
        notes,
        full);
  }

  /** The experiment with {@code extraSets} after its own and {@code seedCount} seeds. */
  public Experiment with(List<String> extraSets, int seedCount) {
    List<String> all = new ArrayList<>(sets);
    all.addAll(extraSets);
    return new Experiment(
        id, description, file, scenario, all, firstSeed, seedCount, columns, rows, notes, full);
  }

  /**
   * One row.
   *
   * @param label row label
   * @param unit unit shown
   * @param value {@code metric:PATH} or {@code report:TOOL_ID.PATH}
   * @param scale factor applied to the value (e.g. 0.001 for ns to us)
   * @param ratioTo column name to divide by, or null
   * @param published one per column, null entries for unpublished
   * @param scenario the row's own scenario (for example another machine), or null for the
   *     experiment's
   * @param aggregate how the seeds combine: {@code mean} (default) or {@code max} (a worst case
   *     over all runs, for rare events)
   * @param band per column the accepted range {@code [lo, hi]} of the simulated value (the result
   *     an issue asks for), null entries for none; an empty list when the row has none
   */
  public record Row(
      String label,
      String unit,
      String value,
      double scale,
      @Nullable String ratioTo,
      List<Double> published,
      @Nullable Path scenario,
      String aggregate,
      List<double[]> band) {
    /** Whether any column has a band. */
    public boolean hasBand() {
      return band.stream().anyMatch(java.util.Objects::nonNull);
    }
  }

  /** The distinct scenarios the rows need, the experiment's own first. */
  public List<Path> scenarios() {
    java.util.LinkedHashSet<Path> all = new java.util.LinkedHashSet<>();
    for (Row r : rows) {
      all.add(r.scenario() == null ? scenario : r.scenario());
    }
    return List.copyOf(all);
  }

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** Experiment files in {@code dir}: names ending in {@code .experiment.yaml}, sorted. */
  public static List<Path> find(Path dir) throws IOException {
    try (var s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".experiment.yaml"))
          .sorted()
          .toList();
    }
  }

  /** Loads and checks {@code file}. */
  public static Experiment load(Path file) throws ScenarioException {
    JsonNode root;
    try {
      root = YAML.readTree(file.toFile());
    } catch (IOException e) {
      throw new ScenarioException(file + ": cannot read experiment: " + e.getMessage(), e);
    }
    String src = file.toString();
    only(
        src,
        "",
        root,
        "experiment",
        "description",
        "scenario",
        "sets",
        "first_seed",
        "seeds",
        "columns",
        "rows",
        "notes",
        "full");
    String id = req(src, "", root, "experiment").asText();
    Path dir = Objects.requireNonNull(file.toAbsolutePath().getParent());
    Path scenario = dir.resolve(req(src, "", root, "scenario").asText());
    List<Configuration> cols = new ArrayList<>();
    JsonNode cs = req(src, "", root, "columns");
    for (int i = 0; i < cs.size(); i++) {
      JsonNode c = cs.get(i);
      String at = "columns[" + i + "]";
      only(src, at, c, "name", "set", "plugins", "scenario");
      List<PluginRef> plugins = new ArrayList<>();
      for (String p : strings(c.get("plugins"))) {
        try {
          plugins.addAll(Configuration.pluginSet(p).plugins());
        } catch (IllegalArgumentException e) {
          throw new ScenarioException(src + ": " + at + ".plugins: " + e.getMessage());
        }
      }
      cols.add(
          new Configuration(
              req(src, at, c, "name").asText(),
              plugins,
              strings(c.get("set")),
              c.has("scenario") ? c.get("scenario").asText() : null));
    }
    List<Row> rows = new ArrayList<>();
    JsonNode rs = req(src, "", root, "rows");
    for (int i = 0; i < rs.size(); i++) {
      JsonNode r = rs.get(i);
      String at = "rows[" + i + "]";
      only(
          src,
          at,
          r,
          "label",
          "unit",
          "value",
          "scale",
          "ratio_to",
          "published",
          "scenario",
          "aggregate",
          "band");
      String aggregate = r.has("aggregate") ? r.get("aggregate").asText() : "mean";
      if (!aggregate.equals("mean") && !aggregate.equals("max")) {
        throw new ScenarioException(
            src + ": " + at + ".aggregate: expected mean or max, got " + aggregate);
      }
      String value = req(src, at, r, "value").asText();
      if (!value.startsWith("metric:") && !value.startsWith("report:")) {
        throw new ScenarioException(
            src + ": " + at + ".value: expected metric:PATH or report:TOOL.PATH, got " + value);
      }
      String ratio = r.has("ratio_to") ? r.get("ratio_to").asText() : null;
      if (ratio != null && cols.stream().noneMatch(c -> c.name().equals(ratio))) {
        throw new ScenarioException(src + ": " + at + ".ratio_to: no column named " + ratio);
      }
      List<Double> pub = new ArrayList<>();
      JsonNode p = r.get("published");
      for (int k = 0; k < cols.size(); k++) {
        JsonNode x = p == null || p.isNull() ? null : p.get(k);
        pub.add(x == null || x.isNull() ? null : number(src, at + ".published[" + k + "]", x));
      }
      if (p != null && !p.isNull() && p.size() != cols.size()) {
        throw new ScenarioException(
            src
                + ": "
                + at
                + ".published: expected "
                + cols.size()
                + " values (one per column), got "
                + p.size());
      }
      rows.add(
          new Row(
              req(src, at, r, "label").asText(),
              r.has("unit") ? r.get("unit").asText() : "",
              value,
              r.has("scale") ? number(src, at + ".scale", r.get("scale")) : 1.0,
              ratio,
              pub,
              r.has("scenario") ? dir.resolve(r.get("scenario").asText()) : null,
              aggregate,
              bands(src, at + ".band", r.get("band"), cols.size())));
    }
    List<String> sets = strings(root.get("sets"));
    int seeds = root.has("seeds") ? seeds(src, root.get("seeds")) : 1;
    Full full = new Full(sets, seeds);
    JsonNode f = root.get("full");
    if (f != null && !f.isNull()) {
      only(src, "full", f, "sets", "seeds");
      full =
          new Full(
              f.has("sets") ? strings(f.get("sets")) : sets,
              f.has("seeds") ? seeds(src + ": full", f.get("seeds")) : seeds);
    }
    return new Experiment(
        id,
        root.has("description") ? root.get("description").asText() : "",
        file,
        scenario,
        sets,
        root.has("first_seed") ? integer(src, "first_seed", root.get("first_seed")) : 1,
        seeds,
        cols,
        rows,
        strings(root.get("notes")),
        full);
  }

  /** A row's bands: one {@code [lo, hi]} or null per column. */
  private static List<double[]> bands(String src, String at, JsonNode n, int cols)
      throws ScenarioException {
    List<double[]> out = new ArrayList<>();
    if (n == null || n.isNull()) {
      return out;
    }
    if (!n.isArray() || n.size() != cols) {
      throw new ScenarioException(
          src
              + ": "
              + at
              + ": expected "
              + cols
              + " entries (one per column), each [lo, hi] or null");
    }
    for (int k = 0; k < cols; k++) {
      JsonNode b = n.get(k);
      if (b.isNull()) {
        out.add(null);
        continue;
      }
      if (!b.isArray() || b.size() != 2) {
        throw new ScenarioException(src + ": " + at + "[" + k + "]: expected [lo, hi] or null");
      }
      double lo = number(src, at + "[" + k + "][0]", b.get(0));
      double hi = number(src, at + "[" + k + "][1]", b.get(1));
      if (lo > hi) {
        throw new ScenarioException(
            src
                + ": "
                + at
                + "["
                + k
                + "]: expected lo <= hi, got ["
                + b.get(0).asText()
                + ", "
                + b.get(1).asText()
                + "]");
      }
      out.add(new double[] {lo, hi});
    }
    return out;
  }

  /** A number field; Jackson's asDouble() would turn text into 0 without a word. */
  private static double number(String src, String at, JsonNode n) throws ScenarioException {
    if (!n.isNumber()) {
      throw new ScenarioException(
          src + ": " + at + ": expected a number, got '" + n.asText() + "'");
    }
    return n.asDouble();
  }

  private static long integer(String src, String at, JsonNode n) throws ScenarioException {
    if (!n.isIntegralNumber()) {
      throw new ScenarioException(
          src + ": " + at + ": expected an integer, got '" + n.asText() + "'");
    }
    return n.asLong();
  }

  private static int seeds(String src, JsonNode n) throws ScenarioException {
    long v = integer(src, "seeds", n);
    if (v < 1 || v > 10_000) {
      throw new ScenarioException(src + ": seeds: expected 1 to 10000, got " + n.asText());
    }
    return (int) v;
  }

  private static JsonNode req(String src, String at, JsonNode n, String key)
      throws ScenarioException {
    if (n == null || !n.has(key) || n.get(key).isNull()) {
      throw new ScenarioException(
          src + ": " + (at.isEmpty() ? "" : at + ": ") + "missing field '" + key + "'");
    }
    return n.get(key);
  }

  private static void only(String src, String at, JsonNode n, String... keys)
      throws ScenarioException {
    if (n == null || !n.isObject()) {
      throw new ScenarioException(
          src + ": " + (at.isEmpty() ? "top level" : at) + ": expected a map");
    }
    List<String> ok = List.of(keys);
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!ok.contains(f)) {
        throw new ScenarioException(
            src
                + ": "
                + (at.isEmpty() ? "" : at + ".")
                + f
                + ": unknown field; expected one of "
                + String.join(", ", keys));
      }
    }
  }

  private static List<String> strings(JsonNode n) {
    List<String> out = new ArrayList<>();
    if (n != null && n.isArray()) {
      n.forEach(x -> out.add(x.asText()));
    } else if (n != null && n.isTextual()) {
      out.add(n.asText());
    }
    return out;
  }
}
