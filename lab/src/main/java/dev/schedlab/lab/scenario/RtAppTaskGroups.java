package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.CgroupSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The cpu-controller groups rt-app makes for {@code taskgroup} keys: {@code /a/b} is group {@code
 * a/b} under group {@code a}, each at the default weight (cgroup v1's {@code cpu.shares} 1024, a
 * nice-0 task's), without a bandwidth limit, as rt-app creates them (src/rt-app_taskgroups.c: mkdir
 * under the cpu controller's mount, nothing written but the tasks). A group holds the threads
 * started from the file by name and the threads forked from a template by the template's name.
 */
final class RtAppTaskGroups {
  private static final long PERIOD_NS = 100_000_000L; // cpu.cfs_period_us default
  private static final int NICE0_WEIGHT = 100; // cpu.weight of cpu.shares 1024

  /** Group name (the path without its leading slash) to the tasks it holds, parents first. */
  private final Map<String, List<String>> groups = new LinkedHashMap<>();

  /** Puts task {@code taskName} in {@code path} ({@code /a/b}; "" or null: the root group). */
  void add(@Nullable String path, String taskName) {
    if (path == null || path.isEmpty()) {
      return;
    }
    String name = path.substring(1);
    int slash = -1;
    while ((slash = name.indexOf('/', slash + 1)) > 0) {
      groups.computeIfAbsent(name.substring(0, slash), k -> new ArrayList<>());
    }
    groups.computeIfAbsent(name, k -> new ArrayList<>()).add(taskName);
  }

  /** The groups, each after its parent. */
  List<CgroupSpec> specs() {
    List<CgroupSpec> out = new ArrayList<>();
    for (Map.Entry<String, List<String>> g : groups.entrySet()) {
      String name = g.getKey();
      int slash = name.lastIndexOf('/');
      String parent = slash < 0 ? "" : name.substring(0, slash);
      out.add(new CgroupSpec(name, parent, NICE0_WEIGHT, -1, PERIOD_NS, g.getValue()));
    }
    return out;
  }
}
