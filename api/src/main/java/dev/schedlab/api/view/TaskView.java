package dev.schedlab.api.view;

import dev.schedlab.api.Policy;
import dev.schedlab.api.TaskState;
import org.jspecify.annotations.Nullable;

/**
 * Read-only view of a task ({@code struct task_struct}). The only mutable part is the {@linkplain
 * #classData() class data} slot, owned by the task's scheduling class.
 */
public interface TaskView {
  /** Process id, unique in a run; idle tasks have pid 0 in the trace and negative ids here. */
  int pid();

  /** Command name as in {@code comm}, without spaces. */
  String comm();

  /** Scheduling policy. */
  Policy policy();

  /** Nice value, -20..19 (fair policies). */
  int nice();

  /** Load weight from {@code sched_prio_to_weight} (nice 0 = 1024; SCHED_IDLE = 3). */
  int weight();

  /** Real-time priority 1..99 (FIFO/RR), 0 otherwise. */
  int rtPriority();

  /** Deadline runtime in ns (SCHED_DEADLINE), 0 otherwise. */
  long dlRuntimeNs();

  /** Relative deadline in ns (SCHED_DEADLINE), 0 otherwise. */
  long dlDeadlineNs();

  /** Period in ns (SCHED_DEADLINE; equals the deadline when not given), 0 otherwise. */
  long dlPeriodNs();

  /** Custom slice in ns ({@code sched_attr.sched_runtime} for fair tasks), or 0 for the default. */
  long customSliceNs();

  /** The CPU the task runs on, or last ran / is queued on. */
  int cpu();

  /** Whether the task may run on {@code cpu} ({@code p->cpus_ptr}). */
  boolean allowedOn(int cpu);

  /** Number of CPUs in the affinity mask. */
  int nrAllowed();

  /** Task state word. */
  TaskState state();

  /** Whether the task is queued on a runqueue ({@code p->on_rq}), including a delayed dequeue. */
  boolean onRq();

  /** Whether the task is the current task of some CPU ({@code p->on_cpu}). */
  boolean onCpu();

  /** Whether this is a kernel thread ({@code PF_KTHREAD}). */
  boolean isKthread();

  /** Whether this is a per-CPU idle task. */
  boolean isIdleTask();

  /** Id of the task's address space, or -1 for kernel threads. */
  int mmId();

  /** Total CPU time consumed so far, ns ({@code se.sum_exec_runtime}). */
  long sumExecNs();

  /**
   * Per-task state of the task's scheduling class (for example an EEVDF entity); null until set.
   */
  @Nullable Object classData();

  /** Sets the class data slot; only the task's scheduling class may call this. */
  void setClassData(@Nullable Object data);

  /**
   * The id of the task's group ({@link MachineView#taskGroups()}), 0 for the root. Since API 1.2.0.
   */
  default int taskGroup() {
    return 0;
  }

  /**
   * PELT of the task's scheduling entity ({@code p->se.avg}), kept by its class when the class
   * tracks load (the fair class does), else zero. Since API 1.2.0.
   */
  default LoadAvgView loadAvg() {
    return LoadAvgView.ZERO;
  }
}
