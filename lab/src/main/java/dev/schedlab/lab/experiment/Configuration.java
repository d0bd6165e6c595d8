package dev.schedlab.lab.experiment;

import dev.schedlab.engine.config.PluginRef;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A named configuration to run a scenario under: plugins to add and {@code --set}-style overrides.
 *
 * @param name column name
 * @param plugins plugins enabled on top of the scenario's own
 * @param sets overrides applied after the scenario file ({@code kernel.preempt=full})
 * @param scenario another scenario file for this configuration, or null for the common one
 */
public record Configuration(
    String name, List<PluginRef> plugins, List<String> sets, @Nullable String scenario) {
  public Configuration {
    plugins = List.copyOf(plugins);
    sets = List.copyOf(sets);
  }

  /** The baseline: the scenario as written. */
  public static Configuration baseline() {
    return new Configuration("baseline", List.of(), List.of(), null);
  }

  /**
   * A plugin set: comma-separated plugin ids, each with an optional option line ({@code sm-idle},
   * {@code a,b:k=v;k2=v2}); a comma-separated {@code k=v} word without a colon continues the
   * previous plugin's options ({@code b:k=v,k2=v2}). Named after the set.
   */
  public static Configuration pluginSet(String text) {
    List<String> lines = new ArrayList<>();
    for (String word : text.split(",", -1)) {
      String w = word.trim();
      if (w.isEmpty()) {
        continue;
      }
      int colon = w.indexOf(':');
      int eq = w.indexOf('=');
      if (eq >= 0 && (colon < 0 || eq < colon)) {
        if (lines.isEmpty()) {
          throw new IllegalArgumentException(
              "plugin set '" + text + "': option '" + w + "' before any plugin id");
        }
        String last = lines.remove(lines.size() - 1);
        lines.add(last + (last.indexOf(':') < 0 ? ":" : ";") + w); // continues its options
      } else {
        lines.add(w);
      }
    }
    if (lines.isEmpty()) {
      throw new IllegalArgumentException("empty plugin set");
    }
    List<PluginRef> refs = new ArrayList<>();
    for (String line : lines) {
      try {
        refs.add(PluginRef.parse(line));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("plugin set '" + text + "': " + e.getMessage(), e);
      }
    }
    return new Configuration(text, refs, List.of(), null);
  }

  /** {@code name:key=value,key=value}: scenario overrides under a name. */
  public static Configuration named(String text) {
    int colon = text.indexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException(
          "--config '" + text + "': expected NAME:key=value[,key=value]");
    }
    List<String> sets = new ArrayList<>();
    for (String kv : text.substring(colon + 1).split(",", -1)) {
      if (!kv.isBlank()) {
        if (kv.indexOf('=') <= 0) {
          throw new IllegalArgumentException(
              "--config '" + text + "': expected key=value, got '" + kv + "'");
        }
        sets.add(kv.trim());
      }
    }
    return new Configuration(text.substring(0, colon), List.of(), sets, null);
  }
}
