package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.CgroupSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Binds {@code kernel.cgroups}: {@code NAME: {parent: NAME, weight: 1..10000, max: "QUOTA PERIOD",
 * tasks: [NAME, ...]}}, where {@code max} is written as cgroup v2's {@code cpu.max} ({@code max},
 * {@code max PERIOD}, {@code QUOTA} or {@code QUOTA PERIOD}; plain numbers are microseconds as in
 * the file, or durations with a unit).
 */
final class CgroupBinder {
  /** {@code cpu.max}'s default period (the kernel's 100 ms). */
  static final long DEFAULT_PERIOD_NS = 100_000_000L;

  /** {@code cpu.weight}'s default: a nice-0 task's share. */
  static final int DEFAULT_WEIGHT = 100;

  private static final long MIN_NS = 1_000_000L; // cgroup v2: quota and period of at least 1 ms
  private static final long MAX_PERIOD_NS = 1_000_000_000L;

  private CgroupBinder() {}

  static List<CgroupSpec> bind(Obj kernel) throws ScenarioException {
    if (!kernel.has("cgroups")) {
      return List.of();
    }
    Obj groups = kernel.get("cgroups").object();
    List<CgroupSpec> out = new ArrayList<>();
    Set<String> defined = new HashSet<>();
    for (String name : groups.names()) {
      Obj g = groups.get(name).object("parent", "weight", "max", "tasks");
      String parent = g.text("parent", "");
      if (!parent.isEmpty() && !defined.contains(parent)) {
        throw g.get("parent")
            .error("unknown cgroup '" + parent + "'; a parent must be defined before its children");
      }
      int weight = g.integer("weight", DEFAULT_WEIGHT, 1, 10_000);
      long quota = -1;
      long period = DEFAULT_PERIOD_NS;
      if (g.has("max")) {
        String[] parts = g.get("max").text().trim().split("\\s+", -1);
        if (parts.length > 2 || parts[0].isEmpty()) {
          throw g.get("max")
              .error("expected \"QUOTA PERIOD\", \"QUOTA\", \"max\" or \"max PERIOD\"");
        }
        if (parts.length == 2) {
          period = time(g.get("max"), parts[1]);
          if (period < MIN_NS || period > MAX_PERIOD_NS) {
            throw g.get("max").error("expected a period of 1 ms to 1 s, got " + parts[1]);
          }
        }
        if (!parts[0].equals("max")) {
          quota = time(g.get("max"), parts[0]);
          if (quota < MIN_NS) {
            throw g.get("max").error("expected a quota of at least 1 ms, got " + parts[0]);
          }
        }
      }
      List<String> tasks = new ArrayList<>();
      if (g.has("tasks")) {
        for (Val t : g.get("tasks").list()) {
          tasks.add(t.text());
        }
      }
      out.add(new CgroupSpec(name, parent, weight, quota, period, tasks));
      defined.add(name);
    }
    return out;
  }

  /** A number of microseconds (cpu.max's unit) or a duration with a unit. */
  private static long time(Val where, String s) throws ScenarioException {
    if (s.matches("\\d+")) {
      return Long.parseLong(s) * 1000L;
    }
    try {
      return dev.schedlab.api.plugin.Durations.parseNs(s, "cpu.max");
    } catch (IllegalArgumentException e) {
      throw where.error("expected microseconds or a duration such as 50ms, got '" + s + "'");
    }
  }
}
