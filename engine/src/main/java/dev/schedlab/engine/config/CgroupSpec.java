package dev.schedlab.engine.config;

import java.util.List;

/**
 * One cgroup of the cpu controller (cgroup v2).
 *
 * @param name the group's name (unique; a path segment)
 * @param parent the parent group's name, or "" for a child of the root
 * @param weight {@code cpu.weight}, 1..10000 (100 = a nice-0 task's share)
 * @param quotaNs {@code cpu.max} quota per period, or -1 for {@code max} (no limit)
 * @param periodNs {@code cpu.max} period
 * @param tasks the tasks in the group: task names (a group name also matches its members {@code
 *     name/i}), {@code *} matching any characters
 */
public record CgroupSpec(
    String name, String parent, int weight, long quotaNs, long periodNs, List<String> tasks) {
  public CgroupSpec {
    tasks = List.copyOf(tasks);
  }

  /** Whether task {@code taskName} belongs to this group. */
  public boolean matches(String taskName) {
    for (String p : tasks) {
      if (glob(p, taskName) || glob(p + "/*", taskName)) {
        return true;
      }
    }
    return false;
  }

  private static boolean glob(String pattern, String s) {
    String regex = java.util.regex.Pattern.quote(pattern).replace("*", "\\E.*\\Q");
    return s.matches(regex);
  }
}
