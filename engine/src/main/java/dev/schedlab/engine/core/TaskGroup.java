package dev.schedlab.engine.core;

import dev.schedlab.api.view.TaskGroupView;
import dev.schedlab.engine.config.CgroupSpec;
import dev.schedlab.engine.config.TaskSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A task group of the run: a cpu-controller cgroup from {@code kernel.cgroups}, or an autogroup.
 *
 * <p>Models: the group tree and each task's group; {@code cpu.weight} as shares ({@code
 * sched_weight_from_cgroup()}: weight x 1024 / 100); {@code cpu.max}; autogroup ({@code
 * CONFIG_SCHED_AUTOGROUP}): with {@code kernel.autogroup}, tasks left in the root cgroup go to
 * their session's autogroup (nice 0: 1024 shares), each workload entry (a task group or a tool)
 * counting as one session, as if started from its own terminal.
 *
 * <p>Does not model: {@code cpu.weight.nice}, {@code cpu.idle}, moving a task between groups at run
 * time (its group is fixed when it is created), and autogroup nice values (every autogroup has nice
 * 0).
 *
 * <p>Kernel reference: {@code kernel/sched/core.c} ({@code cpu_weight_write_u64}, {@code
 * cpu_max_write}), {@code kernel/sched/autogroup.c}.
 */
record TaskGroup(int id, String name, int parentId, long shares, long quotaNs, long periodNs)
    implements TaskGroupView {

  /** The root group alone. */
  static final TaskGroup ROOT = new TaskGroup(0, "", -1, 1024, -1, 100_000_000L);

  /** The groups of {@code cgroups} (root first), and each task's group in {@code taskGroup}. */
  static List<TaskGroup> build(List<CgroupSpec> cgroups, boolean autogroup) {
    List<TaskGroup> out = new ArrayList<>();
    out.add(ROOT);
    Map<String, Integer> ids = new HashMap<>();
    for (CgroupSpec c : cgroups) {
      int parent = c.parent().isEmpty() ? 0 : Objects.requireNonNull(ids.get(c.parent()));
      TaskGroup g =
          new TaskGroup(
              out.size(), c.name(), parent, c.weight() * 1024L / 100, c.quotaNs(), c.periodNs());
      ids.put(c.name(), g.id);
      out.add(g);
    }
    return out;
  }

  /** The group a task of {@code spec} named {@code comm} joins; adds autogroups as needed. */
  static int groupOf(
      List<TaskGroup> groups,
      List<CgroupSpec> cgroups,
      boolean autogroup,
      TaskSpec spec,
      String comm,
      Map<String, Integer> sessions) {
    for (int i = 0; i < cgroups.size(); i++) {
      if (cgroups.get(i).matches(comm)) {
        return i + 1;
      }
    }
    if (!autogroup) {
      return 0;
    }
    String session =
        spec.name().contains("/")
            ? spec.name().substring(0, spec.name().indexOf('/'))
            : spec.name();
    return sessions.computeIfAbsent(
        session,
        s -> {
          TaskGroup g =
              new TaskGroup(
                  groups.size(), "autogroup-" + (sessions.size() + 1), 0, 1024, -1, 100_000_000L);
          groups.add(g);
          return g.id;
        });
  }
}
