package dev.schedlab.lab.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A machine file: the {@code machine:}, {@code kernel:} and {@code tools:} sections of a scenario
 * on their own, as {@code schedlab host} writes them for the machine it runs on ({@code tools}: the
 * tools' kernel-path parameters measured there). A scenario takes one with {@code machine: {file:
 * PATH}} (the file's fields first, the scenario's over them, in both sections) and the command line
 * with {@code --machine FILE} (the file's machine replaces the scenario's, and its kernel and tools
 * fields win; {@code --set} still comes last).
 */
final class MachineFile {
  private static final String[] TOP = {"machine", "kernel", "tools"};

  private MachineFile() {}

  /** Resolves {@code machine.file} in {@code scenario}, relative to {@code baseDir}. */
  static void resolveInScenario(LocatedTree scenario, Path baseDir) throws ScenarioException {
    JsonNode machine = scenario.root().get("machine");
    if (machine == null || !machine.isObject() || !machine.has("file")) {
      return;
    }
    Val fileVal = new Val(scenario, "machine.file", machine.get("file"));
    if (machine.has("preset")) {
      throw fileVal.error("a machine file replaces the preset; give one of preset and file");
    }
    LocatedTree file = read(baseDir.resolve(fileVal.text()), fileVal);
    ((ObjectNode) machine).remove("file");
    for (String section : TOP) {
      graft(scenario, file, section, false);
    }
  }

  /**
   * {@code --machine FILE}: the file's machine replaces the scenario's; its kernel and tools fields
   * win.
   */
  static void applyOverride(LocatedTree scenario, Path path) throws ScenarioException {
    LocatedTree file = read(path, null);
    ObjectNode root = (ObjectNode) scenario.root();
    root.remove("machine");
    scenario.relocate("machine", SourceLocation.of(path.toString()));
    graft(scenario, file, "machine", true);
    graft(scenario, file, "kernel", true);
    graft(scenario, file, "tools", true);
  }

  /** Reads and checks a machine file's top level. */
  static LocatedTree read(Path path, @Nullable Val from) throws ScenarioException {
    String text;
    try {
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      String msg = "machine file " + path + ": no such file";
      throw from == null ? new ScenarioException(msg, e) : from.error(msg);
    } catch (IOException e) {
      String msg = "machine file " + path + ": cannot read: " + e;
      throw from == null ? new ScenarioException(msg, e) : from.error(msg);
    }
    String name = path.toString();
    LocatedTree tree = LocatedTree.parse(name, text, !name.endsWith(".json"));
    Obj top = new Val(tree, "", tree.root()).object(TOP);
    if (top.has("machine")) {
      Obj m = top.get("machine").object(MachineBinder.FIELDS);
      if (m.has("file")) {
        throw m.get("file").error("a machine file cannot name another machine file");
      }
    }
    if (top.has("kernel")) {
      top.get("kernel").object(ScenarioLoader.KERNEL);
    }
    if (top.has("tools")) {
      ToolBinder.defaults(top.get("tools"));
    }
    return tree;
  }

  /**
   * Merges {@code section} of {@code file} into {@code scenario}: maps field by field (so a
   * scenario's {@code kernel.params} adds to a file's), anything else replaced; {@code fileWins}
   * says which side keeps a field both give.
   */
  private static void graft(
      LocatedTree scenario, LocatedTree file, String section, boolean fileWins) {
    JsonNode fromFile = file.root().get(section);
    if (fromFile == null || fromFile.isNull()) {
      return;
    }
    ObjectNode root = (ObjectNode) scenario.root();
    JsonNode own = root.get(section);
    Map<String, SourceLocation> fileLocs = file.locationsUnder(section);
    if (own == null || own.isNull() || !own.isObject() || !fromFile.isObject()) {
      root.set(section, fromFile.deepCopy());
      scenario.putLocations(fileLocs);
      return;
    }
    Map<String, SourceLocation> ownLocs = scenario.locationsUnder(section);
    JsonNode merged =
        fileWins
            ? merge((ObjectNode) own, (ObjectNode) fromFile)
            : merge((ObjectNode) fromFile, (ObjectNode) own);
    root.set(section, merged);
    scenario.putLocations(fileWins ? fileLocs : withoutOwn(fileLocs, ownLocs));
  }

  /** The file's locations for paths the scenario does not give itself. */
  private static Map<String, SourceLocation> withoutOwn(
      Map<String, SourceLocation> file, Map<String, SourceLocation> own) {
    Map<String, SourceLocation> out = new java.util.HashMap<>(file);
    out.keySet().removeAll(own.keySet());
    return out;
  }

  /** {@code over} on top of a copy of {@code base}, maps merged recursively. */
  private static ObjectNode merge(ObjectNode base, ObjectNode over) {
    ObjectNode out = base.deepCopy();
    for (Map.Entry<String, JsonNode> e : over.properties()) {
      JsonNode b = out.get(e.getKey());
      if (b != null && b.isObject() && e.getValue().isObject()) {
        out.set(e.getKey(), merge((ObjectNode) b, (ObjectNode) e.getValue()));
      } else {
        out.set(e.getKey(), e.getValue().deepCopy());
      }
    }
    return out;
  }
}
