package dev.schedlab.cli;

import dev.schedlab.api.ApiVersion;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.lab.run.FoundPlugin;
import dev.schedlab.lab.run.Plugins;
import dev.schedlab.lab.run.Provided;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code schedlab plugins}: what the plugin host finds, and the built-in providers. */
@Command(
    name = "plugins",
    mixinStandardHelpOptions = true,
    description =
        "List the plugins found (id, version, models, hooks, conflicts, status), the"
            + " combinations that may be enabled together, and the built-in scheduling classes, preemption models and idle policies.")
final class PluginsCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Mixin PluginsDir pluginsDir;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Path dir = pluginsDir.resolve();
    try (Plugins host = Plugins.open(dir)) {
      List<FoundPlugin> found = host.found();
      out.println(
          "plugins in "
              + (dir == null ? "(no plugins directory)" : dir)
              + ": "
              + found.size()
              + " (host API "
              + ApiVersion.CURRENT
              + ")");
      for (FoundPlugin p : found) {
        // Version and API range as PF4J read and enforced them (the descriptor must agree).
        out.printf(
            "  %s %s  %s  [%s]%n",
            p.id(),
            p.version().isEmpty() ? "?" : p.version(),
            p.source(),
            p.loaded() ? "loaded" : "FAILED: " + p.problem());
        if (!p.requires().isEmpty()) {
          out.println("      requires:  " + p.requires());
        }
        PluginDescriptor d = p.descriptor();
        if (d != null) {
          out.println("      models:    " + d.models());
          out.println("      hooks:     " + new TreeSet<>(d.hooks()));
          out.println(
              "      conflicts: " + (d.conflicts().isEmpty() ? "-" : new TreeSet<>(d.conflicts())));
          if (p.loaded()) {
            out.println("      adds:      " + contributions(host, p.id()));
          }
        }
      }
      printCombinations(out, host);
      Provided builtin = host.provided(List.of());
      if (builtin.problem() != null) {
        spec.commandLine().getErr().println("schedlab: built-ins: " + builtin.problem());
        return Main.BAD_INPUT;
      }
      out.println("built-in scheduling classes: " + String.join(", ", builtin.classes()));
      out.println(
          "built-in preemption models:  "
              + String.join(", ", new TreeSet<>(builtin.preemptionModels())));
      out.println(
          "built-in idle policies:      "
              + String.join(", ", new TreeSet<>(builtin.idlePolicies())));
    }
    out.flush();
    return Main.OK;
  }

  /**
   * The plugin sets that may be enabled together (what {@code schedlab matrix} expands "all" to),
   * and for each pair that may not, why.
   */
  private static void printCombinations(PrintWriter out, Plugins host) {
    List<List<String>> allowed = host.allowedCombinations();
    out.println("allowed combinations: " + allowed.size());
    for (List<String> combo : allowed) {
      out.println("  " + (combo.isEmpty() ? "none" : String.join(" + ", combo)));
    }
    List<PluginDescriptor> loaded =
        host.found().stream().filter(FoundPlugin::loaded).map(FoundPlugin::descriptor).toList();
    List<String> refused = new ArrayList<>();
    for (int i = 0; i < loaded.size(); i++) {
      for (int j = i + 1; j < loaded.size(); j++) {
        PluginDescriptor a = loaded.get(i);
        PluginDescriptor b = loaded.get(j);
        if (!allowed.contains(List.of(a.id(), b.id()))) {
          refused.add("  " + a.id() + " + " + b.id() + ": " + whyNot(a, b));
        }
      }
    }
    if (!refused.isEmpty()) {
      out.println("not allowed together:");
      refused.forEach(out::println);
    }
  }

  private static String whyNot(PluginDescriptor a, PluginDescriptor b) {
    if (a.conflicts().contains(b.id()) || b.conflicts().contains(a.id())) {
      return "declared conflict (" + (a.conflicts().contains(b.id()) ? a.id() : b.id()) + ")";
    }
    TreeSet<HookPoint> shared = new TreeSet<>();
    for (HookPoint h : a.hooks()) {
      if (h.exclusive() && b.hooks().contains(h)) {
        shared.add(h);
      }
    }
    return shared.isEmpty() ? "refused by the host" : "both override the exclusive hook " + shared;
  }

  /** The classes, preemption models and idle policies the plugin adds to the built-ins. */
  private static String contributions(Plugins host, String id) {
    Provided base = host.provided(List.of());
    if (base.problem() != null) {
      return "(cannot enable alone: " + base.problem() + ")";
    }
    Provided with = host.provided(List.of(id));
    if (with.problem() != null) {
      return "(cannot enable alone: " + with.problem() + ")";
    }
    List<String> added = new ArrayList<>();
    with.classes().stream()
        .filter(n -> !base.classes().contains(n))
        .forEach(n -> added.add("class " + n));
    with.preemptionModels().stream()
        .filter(n -> !base.preemptionModels().contains(n))
        .forEach(n -> added.add("preemption model " + n));
    with.idlePolicies().stream()
        .filter(n -> !base.idlePolicies().contains(n))
        .forEach(n -> added.add("idle policy " + n));
    return added.isEmpty() ? "hook overrides only" : String.join(", ", added);
  }
}
