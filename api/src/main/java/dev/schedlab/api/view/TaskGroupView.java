package dev.schedlab.api.view;

/**
 * Read-only view of a task group ({@code struct task_group}: a cpu-controller cgroup or an
 * autogroup). Group 0 is the root. Since API 1.2.0.
 */
public interface TaskGroupView {
  /** Index in {@link MachineView#taskGroups()}; 0 is the root group. */
  int id();

  /** The cgroup's name ({@code autogroup-N} for an autogroup, "" for the root). */
  String name();

  /** The parent group's id, or -1 for the root. */
  int parentId();

  /** {@code tg->shares}: the group's weight as a nice-0 task's 1024 (cpu.weight x 1024 / 100). */
  long shares();

  /** {@code cpu.max} quota per period, ns, or -1 for no limit. */
  long quotaNs();

  /** {@code cpu.max} period, ns. */
  long periodNs();
}
