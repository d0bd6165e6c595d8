package dev.schedlab.lab.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioException;
import dev.schedlab.lab.scenario.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One entry of the workloads axis: a scenario file, or a built-in workload tool given as the
 * command line you would type ({@code hackbench -g 2 -l 50}), run on the default machine.
 *
 * @param label name shown in tables (the file name without extension, or the tool name)
 * @param file scenario file, or null for a tool line
 * @param toolLine tool and arguments, or null for a file
 * @param duration simulated time of a tool line ({@code 1s} when null); unused for files
 */
public record Workload(
    String label, @Nullable Path file, @Nullable String toolLine, @Nullable String duration) {
  private static final ObjectMapper CANONICAL =
      new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

  /** A scenario file. */
  static Workload ofFile(String label, Path file) {
    return new Workload(label, file, null, null);
  }

  /** A tool line. */
  static Workload ofTool(String label, String toolLine, @Nullable String duration) {
    return new Workload(label, null, toolLine.trim(), duration);
  }

  /** The scenario source as a tree (the file as written, or the scenario made from a tool line). */
  JsonNode tree() throws ScenarioException {
    if (file == null) {
      String line = Objects.requireNonNull(toolLine);
      int space = line.indexOf(' ');
      ObjectNode tool = JsonNodeFactory.instance.objectNode();
      tool.put(
          space < 0 ? line : line.substring(0, space),
          space < 0 ? "" : line.substring(space + 1).trim());
      ObjectNode root = JsonNodeFactory.instance.objectNode();
      root.put("name", label);
      if (duration != null) {
        root.put("duration", duration);
      }
      root.putObject("workload").putArray("tools").add(tool);
      return root;
    }
    try {
      String name = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
      ObjectMapper m = name.endsWith(".json") ? new ObjectMapper() : new YAMLMapper();
      JsonNode n = m.readTree(file.toFile());
      return n == null ? JsonNodeFactory.instance.objectNode() : n;
    } catch (IOException e) {
      throw new ScenarioException(file + ": cannot read: " + e.getMessage(), e);
    }
  }

  /**
   * The scenario's content in canonical form: JSON with sorted keys, so comments, formatting and
   * key order do not matter; plus the name a file gives a scenario that does not name itself.
   */
  String canonical() throws ScenarioException {
    try {
      Object plain = CANONICAL.convertValue(tree(), Object.class);
      String defaultName = file == null ? label : baseName(file);
      return "default_name=" + defaultName + "\n" + CANONICAL.writeValueAsString(plain);
    } catch (IOException e) {
      throw new ScenarioException(this + ": cannot canonicalise: " + e, e);
    }
  }

  /** Loads and validates the scenario with {@code overrides} applied in order. */
  Scenario load(List<String> overrides) throws ScenarioException {
    if (file != null) {
      return ScenarioLoader.load(file, overrides);
    }
    return ScenarioLoader.parse(
        "tool line '" + toolLine + "'", tree().toString(), true, label, overrides);
  }

  /**
   * The files a scenario file reads by reference, as absolute paths: its {@code machine.file} and
   * its {@code workload.rtapp} file, both relative to the scenario's directory. Empty for a tool
   * line. A cluster member gets these with the scenario.
   */
  public List<Path> referencedFiles() throws ScenarioException {
    if (file == null) {
      return List.of();
    }
    Path dir = Objects.requireNonNull(file.toAbsolutePath().getParent());
    JsonNode root = tree();
    List<Path> out = new ArrayList<>();
    JsonNode machine = root.path("machine").path("file");
    if (machine.isTextual()) {
      out.add(dir.resolve(machine.asText()).normalize());
    }
    JsonNode rtapp = root.path("workload").path("rtapp");
    JsonNode rtappFile = rtapp.isObject() ? rtapp.path("file") : rtapp;
    if (rtappFile.isTextual()) {
      out.add(dir.resolve(rtappFile.asText()).normalize());
    }
    return out;
  }

  /** Where the workload comes from, for tables: the file as given, or the tool line. */
  public String source() {
    return file != null ? file.toString() : Objects.requireNonNull(toolLine);
  }

  private static String baseName(Path f) {
    String n = f.getFileName().toString();
    int dot = n.lastIndexOf('.');
    return dot < 0 ? n : n.substring(0, dot);
  }
}
