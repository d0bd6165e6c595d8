package dev.schedlab.lab.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schedlab.lab.scenario.LocatedYaml;
import dev.schedlab.lab.scenario.ScenarioException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Reads a matrix file (YAML or JSON; the format is in {@code docs/matrix.md}), strictly. */
public final class MatrixFile {
  private static final List<String> TOP =
      List.of(
          "name",
          "out",
          "set",
          "workloads",
          "machines",
          "params",
          "plugins",
          "seeds",
          "cells",
          "values");
  private static final List<String> AXES =
      List.of("workloads", "machines", "params", "plugins", "seeds");

  private final Path file;
  private final Path dir;
  private final LocatedYaml doc;

  private MatrixFile(Path file, LocatedYaml doc) {
    this.file = file;
    this.doc = doc;
    Path parent = file.toAbsolutePath().getParent();
    this.dir = parent == null ? Path.of(".") : parent;
  }

  /** Reads {@code file}; a bad field is a {@link ScenarioException} naming the file and field. */
  public static MatrixSpec load(Path file) throws ScenarioException {
    String text;
    try {
      text = Files.readString(file);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new ScenarioException(file + ": no such file");
    } catch (IOException e) {
      throw new ScenarioException(file + ": cannot read: " + e.getMessage(), e);
    }
    LocatedYaml doc = LocatedYaml.parse(file.toString(), text);
    return new MatrixFile(file, doc).spec(doc.root());
  }

  private MatrixSpec spec(JsonNode root) throws ScenarioException {
    if (root == null || !root.isObject()) {
      throw error(
          "", "expected a map with workloads (and machines, params, plugins, seeds) or cells");
    }
    only(root, "", TOP);
    String fileName = file.getFileName().toString();
    String name =
        root.has("name") ? text(root.get("name"), "name") : fileName.replaceFirst("\\.[^.]*$", "");
    Path out = root.has("out") ? dir.resolve(text(root.get("out"), "out")) : null;
    List<MatrixSpec.Axes> blocks = new ArrayList<>();
    if (root.has("cells")) {
      for (String a : AXES) {
        if (root.has(a)) {
          throw error(a, "give either axes or cells, not both (each cell names its own values)");
        }
      }
      int i = 0;
      for (JsonNode c : list(root.get("cells"), "cells")) {
        String at = "cells[" + i++ + "]";
        only(c, at, List.of("workload", "machine", "params", "plugins", "seed"));
        if (!c.has("workload")) {
          throw error(at, "missing field workload");
        }
        blocks.add(
            axes(
                one(c.get("workload")),
                c.get("machine"),
                one(c.get("params")),
                one(c.get("plugins")),
                c.get("seed"),
                at + "."));
      }
    } else {
      if (!root.has("workloads")) {
        throw error("workloads", "missing: list scenario files or tool lines (or give cells)");
      }
      blocks.add(
          axes(
              root.get("workloads"),
              root.get("machines"),
              root.get("params"),
              root.get("plugins"),
              root.get("seeds"),
              ""));
    }
    return new MatrixSpec(
        name,
        file,
        out,
        strings(root.get("set"), "set"),
        blocks,
        strings(root.get("values"), "values"));
  }

  private MatrixSpec.Axes axes(
      @Nullable JsonNode workloads,
      @Nullable JsonNode machines,
      @Nullable JsonNode params,
      @Nullable JsonNode plugins,
      @Nullable JsonNode seeds,
      String prefix)
      throws ScenarioException {
    List<Workload> w = new ArrayList<>();
    int i = 0;
    for (JsonNode n : list(workloads, prefix + "workloads")) {
      w.add(workload(n, prefix + "workloads[" + i++ + "]"));
    }
    List<String> m = new ArrayList<>();
    for (String s :
        machines == null ? List.of("scenario") : strings(machines, prefix + "machines")) {
      m.add(s.equals("scenario") ? null : s);
    }
    List<ParamSet> p = new ArrayList<>();
    i = 0;
    for (JsonNode n : params == null ? List.<JsonNode>of() : list(params, prefix + "params")) {
      p.add(paramSet(n, prefix + "params[" + i++ + "]"));
    }
    if (p.isEmpty()) {
      p.add(ParamSet.NONE);
    }
    List<PluginChoice> pl = new ArrayList<>();
    i = 0;
    for (JsonNode n : plugins == null ? List.<JsonNode>of() : list(plugins, prefix + "plugins")) {
      pl.add(pluginChoice(n, prefix + "plugins[" + i++ + "]"));
    }
    if (pl.isEmpty()) {
      pl.add(null);
    }
    return new MatrixSpec.Axes(w, m, p, pl, seeds(seeds, prefix + "seeds"));
  }

  /** A cell's single value as a one-entry axis (null stays null: the axis's default). */
  private static @Nullable JsonNode one(@Nullable JsonNode n) {
    return n == null
        ? null
        : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode().add(n);
  }

  private Workload workload(JsonNode n, String at) throws ScenarioException {
    if (n.isTextual()) {
      return file(n.asText(), null, at);
    }
    only(n, at, List.of("file", "tool", "label", "duration"));
    String label = n.has("label") ? text(n.get("label"), at + ".label") : null;
    if (n.has("file") == n.has("tool")) {
      throw error(at, "expected a scenario file path, {file: PATH} or {tool: \"TOOL ARGS\"}");
    }
    if (n.has("file")) {
      if (n.has("duration")) {
        throw error(at + ".duration", "only for tool lines; for a file use set: [duration=...]");
      }
      return file(text(n.get("file"), at + ".file"), label, at);
    }
    String line = text(n.get("tool"), at + ".tool");
    String tool = line.trim().split("\\s+", -1)[0];
    return Workload.ofTool(
        label != null ? label : tool,
        line,
        n.has("duration") ? text(n.get("duration"), at + ".duration") : null);
  }

  private Workload file(String path, @Nullable String label, String at) throws ScenarioException {
    Path f = dir.resolve(path).normalize();
    if (!Files.isRegularFile(f)) {
      throw error(at, "no such scenario file " + f + " (paths are relative to the matrix file)");
    }
    String n = f.getFileName().toString();
    return Workload.ofFile(label != null ? label : n.replaceFirst("\\.[^.]*$", ""), f);
  }

  private ParamSet paramSet(JsonNode n, String at) throws ScenarioException {
    if (n.isTextual() && n.asText().equals("-")) {
      return ParamSet.NONE;
    }
    if (n.isObject()) {
      only(n, at, List.of("label", "set"));
      List<String> sets = strings(n.get("set"), at + ".set");
      return n.has("label")
          ? new ParamSet(text(n.get("label"), at + ".label"), sets)
          : ParamSet.of(sets);
    }
    return ParamSet.of(strings(n, at));
  }

  private @Nullable PluginChoice pluginChoice(JsonNode n, String at) throws ScenarioException {
    if (n.isTextual() && PluginChoice.KEYWORDS.contains(n.asText())) {
      return new PluginChoice(n.asText(), List.of(), located(at));
    }
    if (n.isTextual() && n.asText().equals("scenario")) {
      return null;
    }
    return PluginChoice.explicit(strings(n, at), located(at));
  }

  private List<Long> seeds(@Nullable JsonNode n, String at) throws ScenarioException {
    List<Long> out = new ArrayList<>();
    if (n == null) {
      out.add(null);
    } else if (n.isObject()) {
      only(n, at, List.of("first", "count"));
      long first = n.has("first") ? integer(n.get("first"), at + ".first") : 1;
      long count = n.has("count") ? integer(n.get("count"), at + ".count") : 1;
      if (count < 1 || count > 100_000) {
        throw error(at + ".count", "expected 1..100000, got " + count);
      }
      for (long s = first; s < first + count; s++) {
        out.add(s);
      }
    } else {
      int i = 0;
      for (JsonNode s : n.isArray() ? list(n, at) : List.of(n)) {
        out.add(
            s.isTextual() && s.asText().equals("scenario") ? null : integer(s, at + "[" + i + "]"));
        i++;
      }
    }
    return out;
  }

  private List<JsonNode> list(@Nullable JsonNode n, String at) throws ScenarioException {
    if (n == null || !n.isArray() || n.isEmpty()) {
      throw error(at, "expected a non-empty list");
    }
    List<JsonNode> out = new ArrayList<>();
    n.forEach(out::add);
    return out;
  }

  private List<String> strings(JsonNode n, String at) throws ScenarioException {
    if (n == null || n.isNull()) {
      return List.of();
    }
    if (!n.isArray()) {
      return List.of(text(n, at));
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n.size(); i++) {
      out.add(text(n.get(i), at + "[" + i + "]"));
    }
    return out;
  }

  private String text(JsonNode n, String at) throws ScenarioException {
    if (n == null || !n.isValueNode() || n.isNull() || n.asText().isBlank()) {
      throw error(at, "expected a string");
    }
    return n.asText();
  }

  private long integer(JsonNode n, String at) throws ScenarioException {
    if (!n.canConvertToLong() || !n.isIntegralNumber()) {
      throw error(at, "expected an integer, got " + n);
    }
    return n.asLong();
  }

  private void only(JsonNode n, String at, List<String> allowed) throws ScenarioException {
    if (!n.isObject()) {
      throw error(at, "expected a map with " + allowed);
    }
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!allowed.contains(f)) {
        throw error(at.isEmpty() ? f : at + "." + f, "unknown field; expected one of " + allowed);
      }
    }
  }

  /** {@code FILE:LINE:COL: at}, the prefix of a message about field {@code at}. */
  private String located(String at) {
    return doc.where(at) + (at.isEmpty() ? "" : ": " + at);
  }

  private ScenarioException error(String at, String message) {
    return new ScenarioException(doc.where(at) + (at.isEmpty() ? "" : ": " + at) + ": " + message);
  }
}
