package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.CgroupSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The cpu-controller groups rt-app makes for {@code taskgroup} keys: {@code /a/b} is group {@code
 * a/b} under group {@code a}, each at the default weight (cgroup v1's {@code cpu.shares} 1024, a
 * nice-0 task's), without a bandwidth limit, as rt-app creates them (src/rt-app_taskgroups.c: mkdir
 * under the cpu controller's mount, nothing written but the threads). They start empty: each thread
 * writes itself into its group when it starts and when a phase names another ({@code
 * set_thread_taskgroup()}, a {@link dev.schedlab.engine.config.StepSpec.Cgroup} step).
 */
final class RtAppTaskGroups {
  /** Group names, parents first. */
  private final Set<String> groups = new LinkedHashSet<>();

  /** The task group of {@code path} ({@code /a/b} is {@code a/b}; "/" the root, ""). */
  static String name(String path) {
    return path.substring(1);
  }

  /** Makes the groups of {@code path} and its ancestors (nothing for null or the root). */
  void add(@Nullable String path) {
    if (path == null || path.equals("/")) {
      return;
    }
    String name = name(path);
    int slash = -1;
    while ((slash = name.indexOf('/', slash + 1)) > 0) {
      groups.add(name.substring(0, slash));
    }
    groups.add(name);
  }

  /** The groups, each after its parent. */
  List<CgroupSpec> specs() {
    List<CgroupSpec> out = new ArrayList<>();
    for (String name : groups) {
      int slash = name.lastIndexOf('/');
      String parent = slash < 0 ? "" : name.substring(0, slash);
      out.add(
          new CgroupSpec(
              name,
              parent,
              CgroupBinder.DEFAULT_WEIGHT,
              -1,
              CgroupBinder.DEFAULT_PERIOD_NS,
              List.of()));
    }
    return out;
  }
}
