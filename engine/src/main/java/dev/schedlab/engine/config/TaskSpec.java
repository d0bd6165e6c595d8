package dev.schedlab.engine.config;

import java.util.List;
import java.util.Map;

/**
 * A group of {@code count} identical tasks.
 *
 * @param name comm prefix; tasks are named {@code name/i} (or {@code name} when count is 1)
 * @param count number of tasks
 * @param policy policy name: normal, batch, idle, fifo, rr, deadline, ext
 * @param nice nice value for fair policies
 * @param rtPriority 1..99 for fifo/rr
 * @param dlRuntimeNs deadline runtime
 * @param dlDeadlineNs deadline relative deadline
 * @param dlPeriodNs deadline period (0 = deadline)
 * @param cpus affinity cpulist ("" = all CPUs); with {@code perCpu}, task i is pinned to the i-th
 *     listed CPU
 * @param perCpu pin task i of the group to the i-th CPU of {@code cpus}
 * @param kthread whether the tasks are kernel threads (no mm, never exit to user)
 * @param process process (mm) sharing: "own" = each task its own mm, "group" = the group shares one
 * @param startNs when the tasks are created
 * @param program the steps each task runs, looping forever unless it ends with {@code exit}
 * @param timerSlackNs the tasks' timer slack ({@code prctl(PR_SET_TIMERSLACK)}), or -1 for the
 *     kernel's default ({@code sched.timer_slack})
 * @param startCpu the CPU the tasks are on when created, for tasks that already exist when the run
 *     starts (an imported trace's); -1: placed as a new task ({@code select_task_rq()} with
 *     WF_FORK)
 * @param startAsleep the tasks exist asleep when created, inside their first step (a {@code block}
 *     or a {@code sleep}), and run only once it ends: tasks of an imported trace that were asleep
 *     when the trace began
 * @param startRunning the task (one, with {@code startCpu}, created at 0) is its CPU's current task
 *     when the run starts: the first pick there takes it whatever the class would pick, as a task
 *     of an imported trace seen running on that CPU at the trace's start
 * @param draws the values each task's {@link StepSpec.Pick} steps read, by draw sequence name (a
 *     tool's random choices laid out when the program was built)
 */
public record TaskSpec(
    String name,
    int count,
    String policy,
    int nice,
    int rtPriority,
    long dlRuntimeNs,
    long dlDeadlineNs,
    long dlPeriodNs,
    String cpus,
    boolean perCpu,
    boolean kthread,
    String process,
    long startNs,
    List<StepSpec> program,
    long timerSlackNs,
    int startCpu,
    boolean startAsleep,
    boolean startRunning,
    Map<String, List<Integer>> draws) {
  public TaskSpec {
    program = List.copyOf(program);
    draws = Map.copyOf(draws);
  }

  /** Tasks that start running (on {@code startCpu}, or placed as new tasks). */
  public TaskSpec(
      String name,
      int count,
      String policy,
      int nice,
      int rtPriority,
      long dlRuntimeNs,
      long dlDeadlineNs,
      long dlPeriodNs,
      String cpus,
      boolean perCpu,
      boolean kthread,
      String process,
      long startNs,
      List<StepSpec> program,
      long timerSlackNs,
      int startCpu) {
    this(
        name,
        count,
        policy,
        nice,
        rtPriority,
        dlRuntimeNs,
        dlDeadlineNs,
        dlPeriodNs,
        cpus,
        perCpu,
        kthread,
        process,
        startNs,
        program,
        timerSlackNs,
        startCpu,
        false,
        false,
        Map.of());
  }

  /** Tasks placed as new tasks. */
  public TaskSpec(
      String name,
      int count,
      String policy,
      int nice,
      int rtPriority,
      long dlRuntimeNs,
      long dlDeadlineNs,
      long dlPeriodNs,
      String cpus,
      boolean perCpu,
      boolean kthread,
      String process,
      long startNs,
      List<StepSpec> program,
      long timerSlackNs) {
    this(
        name,
        count,
        policy,
        nice,
        rtPriority,
        dlRuntimeNs,
        dlDeadlineNs,
        dlPeriodNs,
        cpus,
        perCpu,
        kthread,
        process,
        startNs,
        program,
        timerSlackNs,
        -1);
  }

  /** Tasks with the kernel's default timer slack. */
  public TaskSpec(
      String name,
      int count,
      String policy,
      int nice,
      int rtPriority,
      long dlRuntimeNs,
      long dlDeadlineNs,
      long dlPeriodNs,
      String cpus,
      boolean perCpu,
      boolean kthread,
      String process,
      long startNs,
      List<StepSpec> program) {
    this(
        name,
        count,
        policy,
        nice,
        rtPriority,
        dlRuntimeNs,
        dlDeadlineNs,
        dlPeriodNs,
        cpus,
        perCpu,
        kthread,
        process,
        startNs,
        program,
        -1);
  }

  /** The same tasks with timer slack {@code ns} ({@code prctl(PR_SET_TIMERSLACK)}). */
  public TaskSpec withTimerSlack(long ns) {
    return with(ns, draws);
  }

  /** The same tasks with the draw sequences {@code d} ({@link StepSpec.Pick}). */
  public TaskSpec withDraws(Map<String, List<Integer>> d) {
    return with(timerSlackNs, d);
  }

  private TaskSpec with(long slack, Map<String, List<Integer>> d) {
    return new TaskSpec(
        name,
        count,
        policy,
        nice,
        rtPriority,
        dlRuntimeNs,
        dlDeadlineNs,
        dlPeriodNs,
        cpus,
        perCpu,
        kthread,
        process,
        startNs,
        program,
        slack,
        startCpu,
        startAsleep,
        startRunning,
        d);
  }
}
