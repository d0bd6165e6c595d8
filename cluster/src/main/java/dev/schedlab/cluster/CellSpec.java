package dev.schedlab.cluster;

import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.lab.matrix.Cell;
import dev.schedlab.lab.matrix.ParamSet;
import dev.schedlab.lab.matrix.Workload;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A cell as sent to a member: the cell's inputs, with the bytes of its scenario file and of the
 * files that scenario references, keyed by their absolute paths on the coordinator. The member
 * writes them at the same paths under a private directory of its own, so relative references
 * resolve as on the coordinator, and runs the same cell through the same engine code.
 *
 * @param index position in the matrix
 * @param runId the cell's run id
 * @param label the workload's label
 * @param scenario the scenario file's absolute path on the coordinator, or null for a tool line
 * @param toolLine the tool line, or null for a file
 * @param duration a tool line's duration, or null
 * @param files the scenario file and the files it references, by absolute path
 * @param machine machine preset, or null
 * @param paramsLabel the params entry's label
 * @param paramSets the params entry's overrides
 * @param plugins the plugin set, or null to keep the scenario's
 * @param seed the seed, or null to keep the scenario's
 * @param globalSets the matrix's overrides
 */
record CellSpec(
    int index,
    String runId,
    String label,
    @Nullable String scenario,
    @Nullable String toolLine,
    @Nullable String duration,
    SortedMap<String, byte[]> files,
    @Nullable String machine,
    String paramsLabel,
    List<String> paramSets,
    @Nullable List<Plugin> plugins,
    @Nullable Long seed,
    List<String> globalSets)
    implements Serializable {
  /** One plugin of the set with its options. */
  record Plugin(String id, SortedMap<String, String> options) implements Serializable {}

  CellSpec {
    files = new TreeMap<>(files);
    paramSets = new ArrayList<>(paramSets);
    plugins = plugins == null ? null : new ArrayList<>(plugins);
    globalSets = new ArrayList<>(globalSets);
  }

  /** The spec of {@code cell}, with {@code files} as read by {@link #filesOf}. */
  static CellSpec of(Cell cell, SortedMap<String, byte[]> files) {
    Workload w = cell.workload();
    List<Plugin> plugins =
        cell.plugins() == null
            ? null
            : cell.plugins().stream()
                .map(p -> new Plugin(p.id(), new TreeMap<>(p.options())))
                .toList();
    return new CellSpec(
        cell.index(),
        cell.runId(),
        w.label(),
        w.file() == null ? null : w.file().toAbsolutePath().normalize().toString(),
        w.toolLine(),
        w.duration(),
        files,
        cell.machine(),
        cell.params().label(),
        cell.params().sets(),
        plugins,
        cell.seed(),
        cell.globalSets());
  }

  /**
   * The scenario file of {@code w} and the files it references, by absolute path; a file that
   * cannot be read is left out (the member then fails the cell as this machine would).
   */
  static SortedMap<String, byte[]> filesOf(Workload w) {
    SortedMap<String, byte[]> out = new TreeMap<>();
    if (w.file() == null) {
      return out;
    }
    List<Path> paths = new ArrayList<>(List.of(w.file().toAbsolutePath().normalize()));
    try {
      paths.addAll(w.referencedFiles());
    } catch (Exception e) {
      // the scenario does not parse: the member reports it when it loads the scenario
    }
    for (Path p : paths) {
      try {
        out.put(p.toString(), Files.readAllBytes(p));
      } catch (IOException e) {
        // missing: the member fails the cell with "no such file", as a local run would
      }
    }
    return out;
  }

  /**
   * The cell, its files written under {@code mirror} at their coordinator paths (each written
   * whole, then renamed into place, so cells running at once never read a partial file).
   */
  Cell toCell(Path mirror) throws IOException {
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      Path to = under(mirror, f.getKey());
      if (Files.isRegularFile(to) && Arrays.equals(Files.readAllBytes(to), f.getValue())) {
        continue;
      }
      Files.createDirectories(to.getParent());
      Path tmp = Files.createTempFile(to.getParent(), ".part-", "");
      Files.write(tmp, f.getValue());
      Files.move(tmp, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
    Workload w =
        new Workload(label, scenario == null ? null : under(mirror, scenario), toolLine, duration);
    List<PluginRef> refs =
        plugins == null
            ? null
            : plugins.stream().map(p -> new PluginRef(p.id(), p.options())).toList();
    return new Cell(
        index, runId, w, machine, new ParamSet(paramsLabel, paramSets), refs, seed, globalSets);
  }

  /** {@code path} (absolute on the coordinator) inside {@code mirror}. */
  static Path under(Path mirror, String path) throws IOException {
    Path root = mirror.toAbsolutePath().normalize();
    String relative =
        path.replace('\\', '/').replaceFirst("^[A-Za-z]:", "").replaceFirst("^/+", "");
    Path p = root.resolve(relative).normalize();
    if (!p.startsWith(root) || p.equals(root)) {
      throw new IOException("cell file " + path + " does not map into " + root);
    }
    return p;
  }
}
