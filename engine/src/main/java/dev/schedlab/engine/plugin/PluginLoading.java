package dev.schedlab.engine.plugin;

import dev.schedlab.api.ApiVersion;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.SchedlabPlugin;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import org.jspecify.annotations.Nullable;
import org.pf4j.PluginState;
import org.pf4j.PluginWrapper;

/**
 * Loads the candidates of a plugins directory one by one into PF4J and turns every failure into a
 * {@link PluginStatus} with a reason a user can act on.
 */
final class PluginLoading {
  private record Pending(PluginDirectory.Candidate candidate, String id) {}

  private final SchedlabPluginManager manager;
  private final List<PluginStatus> statuses = new ArrayList<>();

  PluginLoading(SchedlabPluginManager manager) {
    this.manager = manager;
  }

  List<PluginStatus> statuses() {
    return statuses;
  }

  void loadAll(List<PluginDirectory.Candidate> candidates) {
    List<Pending> pending = new ArrayList<>();
    for (PluginDirectory.Candidate c : candidates) {
      String refusal =
          c.problem() == null
                  && c.dir() != null
                  && Files.isRegularFile(c.dir().resolve("plugin.properties"))
              ? refused(c)
              : null;
      if (c.problem() != null) {
        fail(c, fileId(c.source()), "", c.problem());
      } else if (!Files.isRegularFile(
          Objects.requireNonNull(c.dir()).resolve("plugin.properties"))) {
        fail(
            c,
            fileId(c.source()),
            "",
            "missing plugin.properties at the plugin root "
                + "(expected plugin.id, plugin.version, plugin.requires)");
      } else if (refusal != null) {
        Properties p = properties(c.dir());
        fail(
            c,
            p.getProperty("plugin.id", fileId(c.source())),
            p.getProperty("plugin.version", ""),
            refusal);
      } else {
        try {
          pending.add(new Pending(c, manager.loadPlugin(c.dir())));
        } catch (RuntimeException | LinkageError e) {
          Properties p = properties(c.dir());
          fail(
              c,
              p.getProperty("plugin.id", fileId(c.source())),
              p.getProperty("plugin.version", ""),
              p.getProperty("plugin.requires", ""),
              "cannot load: " + message(e));
        }
      }
    }
    try {
      manager.startPlugins();
    } catch (RuntimeException e) {
      // PF4J records start failures per plugin (FAILED); anything else is reported below.
    }
    for (Pending p : pending) {
      check(p);
    }
  }

  private void check(Pending p) {
    PluginDirectory.Candidate c = p.candidate();
    PluginWrapper w = manager.getPlugin(p.id());
    if (w == null) {
      fail(c, p.id(), "", "not resolved by PF4J (check plugin.dependencies)");
      return;
    }
    String version = w.getDescriptor().getVersion();
    String requires = w.getDescriptor().getRequires();
    boolean compatible;
    try {
      compatible = manager.apiCompatible(w);
    } catch (RuntimeException e) {
      fail(
          c,
          p.id(),
          version,
          requires,
          "unreadable plugin.requires '" + requires + "': " + message(e));
      return;
    }
    if (!compatible) {
      fail(
          c,
          p.id(),
          version,
          requires,
          "incompatible API: plugin.requires '"
              + requires
              + "' does not admit the schedlab API "
              + ApiVersion.CURRENT
              + " of this host");
      return;
    }
    if (w.getPluginState() != PluginState.STARTED) {
      Throwable t = w.getFailedException();
      fail(
          c,
          p.id(),
          version,
          requires,
          "not started (" + w.getPluginState() + ")" + (t == null ? "" : ": " + message(t)));
      return;
    }
    String problem;
    PluginDescriptor d = null;
    List<SchedlabPlugin> found;
    try {
      found = manager.getExtensions(SchedlabPlugin.class, p.id());
    } catch (RuntimeException | LinkageError e) {
      fail(
          c,
          p.id(),
          version,
          requires,
          "cannot instantiate its SchedlabPlugin extension: " + message(e));
      return;
    }
    if (found.isEmpty()) {
      problem =
          "no SchedlabPlugin extension found: annotate the class with @Extension and list it"
              + " in META-INF/extensions.idx (put org.pf4j:pf4j in annotationProcessorPaths)";
    } else if (found.size() > 1) {
      problem =
          "more than one SchedlabPlugin extension: "
              + found.stream().map(x -> x.getClass().getName()).sorted().toList();
    } else {
      try {
        d = found.get(0).descriptor();
        problem =
            d == null ? "descriptor() returned null" : disagreement(d, p.id(), version, requires);
      } catch (RuntimeException | LinkageError e) {
        problem = "descriptor() threw " + e;
      }
    }
    if (problem != null) {
      fail(c, p.id(), version, requires, problem);
    } else {
      statuses.add(new PluginStatus(p.id(), version, requires, c.source().toString(), d, null));
    }
  }

  /** Why {@link PluginCodeCheck} refuses the candidate, or null when it passes. */
  private static @Nullable String refused(PluginDirectory.Candidate c) {
    try {
      List<String> problems = PluginCodeCheck.problems(Objects.requireNonNull(c.dir()));
      return problems.isEmpty()
          ? null
          : "refused by the plugin code check (docs/plugin-safety.md): "
              + String.join("; ", problems);
    } catch (IOException e) {
      return "refused: unreadable class file: " + message(e);
    }
  }

  /**
   * Where the descriptor states other metadata than the plugin.properties PF4J enforces, or null.
   * (A plugin built with schedlab-plugin-parent reads both from the same pom properties.)
   */
  static @Nullable String disagreement(
      PluginDescriptor d, String id, String version, String requires) {
    if (!d.id().equals(id)) {
      return "descriptor id '"
          + d.id()
          + "' differs from plugin.id '"
          + id
          + "' in plugin.properties";
    }
    if (!d.version().equals(version)) {
      return "descriptor version '"
          + d.version()
          + "' differs from plugin.version '"
          + version
          + "' in plugin.properties (build the descriptor with PluginMetadata.of)";
    }
    if (!d.requiresApi().equals(requires)) {
      return "descriptor API range '"
          + d.requiresApi()
          + "' differs from plugin.requires '"
          + requires
          + "' in plugin.properties (build the descriptor with PluginMetadata.of)";
    }
    return null;
  }

  private void fail(PluginDirectory.Candidate c, String id, String version, String problem) {
    fail(c, id, version, "", problem);
  }

  private void fail(
      PluginDirectory.Candidate c, String id, String version, String requires, String problem) {
    statuses.add(new PluginStatus(id, version, requires, c.source().toString(), null, problem));
  }

  private static String fileId(Path source) {
    String name = source.getFileName().toString();
    return name.endsWith(".zip") ? name.substring(0, name.length() - 4) : name;
  }

  private static Properties properties(Path dir) {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(dir.resolve("plugin.properties"))) {
      p.load(in);
    } catch (IOException | RuntimeException e) {
      // unreadable: the caller falls back to the file name
    }
    return p;
  }

  private static String message(Throwable t) {
    String m = t.getMessage();
    return m == null || m.isBlank() ? t.toString() : m;
  }
}
