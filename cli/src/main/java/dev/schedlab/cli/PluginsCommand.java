package dev.schedlab.cli;

import dev.schedlab.api.ApiVersion;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.engine.plugin.PluginStatus;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
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
    try (PluginHost host = PluginHost.open(dir)) {
      List<PluginStatus> found = host.plugins();
      out.println(
          "plugins in "
              + (dir == null ? "(no plugins directory)" : dir)
              + ": "
              + found.size()
              + " (host API "
              + ApiVersion.CURRENT
              + ")");
      for (PluginStatus p : found) {
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
      try {
        Extensions builtin = host.extensionsFor(List.of());
        out.println(
            "built-in scheduling classes: "
                + builtin.classes().stream()
                    .map(SchedulingClass::name)
                    .collect(Collectors.joining(", ")));
        out.println(
            "built-in preemption models:  "
                + String.join(", ", new TreeSet<>(builtin.preemptionModels().keySet())));
        out.println(
            "built-in idle policies:      "
                + String.join(", ", new TreeSet<>(builtin.idlePolicies().keySet())));
      } catch (PluginException e) {
        spec.commandLine().getErr().println("schedlab: built-ins: " + e.getMessage());
        return Main.BAD_INPUT;
      }
    }
    out.flush();
    return Main.OK;
  }

  /**
   * The plugin sets that may be enabled together (what {@code schedlab matrix} expands "all" to),
   * and for each pair that may not, why.
   */
  private static void printCombinations(PrintWriter out, PluginHost host) {
    List<List<String>> allowed = host.allowedCombinations();
    out.println("allowed combinations: " + allowed.size());
    for (List<String> combo : allowed) {
      out.println("  " + (combo.isEmpty() ? "none" : String.join(" + ", combo)));
    }
    List<PluginDescriptor> loaded =
        host.plugins().stream().filter(PluginStatus::loaded).map(PluginStatus::descriptor).toList();
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
  private static String contributions(PluginHost host, String id) {
    try {
      Extensions base = host.extensionsFor(List.of());
      Extensions with = host.extensionsFor(List.of(new PluginRef(id, Map.of())));
      List<String> added = new ArrayList<>();
      Set<String> baseClasses =
          base.classes().stream().map(SchedulingClass::name).collect(Collectors.toSet());
      with.classes().stream()
          .map(SchedulingClass::name)
          .filter(n -> !baseClasses.contains(n))
          .forEach(n -> added.add("class " + n));
      with.preemptionModels().keySet().stream()
          .filter(n -> !base.preemptionModels().containsKey(n))
          .forEach(n -> added.add("preemption model " + n));
      with.idlePolicies().keySet().stream()
          .filter(n -> !base.idlePolicies().containsKey(n))
          .forEach(n -> added.add("idle policy " + n));
      return added.isEmpty() ? "hook overrides only" : String.join(", ", added);
    } catch (PluginException e) {
      return "(cannot enable alone: " + e.getMessage() + ")";
    }
  }
}
