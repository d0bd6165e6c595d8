package dev.schedlab.lab.matrix;

import dev.schedlab.engine.config.PluginRef;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The stable id of a cell: the first 16 hex digits of SHA-256 over the cell's inputs, namely the
 * scenario content in canonical form, the overrides in the order applied, the plugin ids with their
 * options, the seed and the engine version. The same inputs give the same id on any machine and in
 * any run; any change to one of them gives another id. Where the scenario file lives, the matrix
 * file's layout and the cell's position do not count.
 */
final class RunId {
  private RunId() {}

  static String of(
      String canonicalScenario,
      List<String> overrides,
      List<PluginRef> plugins,
      Long seed,
      String engineVersion) {
    StringBuilder in = new StringBuilder("schedlab-matrix-cell/1\n");
    in.append("version=").append(engineVersion).append('\n');
    in.append("scenario=").append(canonicalScenario).append('\n');
    for (String o : overrides) {
      in.append("set=").append(o.length()).append(':').append(o).append('\n');
    }
    if (plugins == null) {
      in.append("plugins=scenario\n");
    } else {
      for (PluginRef p : plugins) {
        in.append("plugin=").append(p.id()).append(' ').append(p.options()).append('\n');
      }
      in.append("plugins=").append(plugins.size()).append('\n');
    }
    in.append("seed=").append(seed == null ? "scenario" : seed.toString()).append('\n');
    try {
      byte[] h =
          MessageDigest.getInstance("SHA-256")
              .digest(in.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(h, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
