package dev.schedlab.testkit;

import dev.schedlab.api.LoadWeights;
import dev.schedlab.api.Policy;
import dev.schedlab.api.TaskState;
import dev.schedlab.api.view.TaskView;
import org.jspecify.annotations.Nullable;

/**
 * A task for unit tests with {@link FakeKernel}: a pid, a policy and weight, an affinity, and the
 * per-class data slot a scheduling class keeps its entity in. Setters return the task, so a test
 * writes {@code TestTask.of(1).policy(Policy.EXT).weight(2048).allowed(0, 2)}.
 */
public final class TestTask implements TaskView {
  private final int pid;
  private String comm;
  private Policy policy = Policy.NORMAL;
  private int nice;
  private int weight = LoadWeights.ofNice(0);
  private int rtPriority;
  private int[] allowed = {};
  private int cpu;
  private TaskState state = TaskState.RUNNING;
  private boolean onRq = true;
  private boolean idleTask;
  private long sumExecNs;
  private @Nullable Object classData;

  private TestTask(int pid) {
    this.pid = pid;
    this.comm = "t" + pid;
  }

  /** A SCHED_NORMAL task of nice 0 (weight 1024), runnable, allowed on every CPU. */
  public static TestTask of(int pid) {
    return new TestTask(pid);
  }

  /** The policy; {@link Policy#IDLE} also gives the SCHED_IDLE weight. */
  public TestTask policy(Policy policy) {
    this.policy = policy;
    this.weight = LoadWeights.of(policy, nice);
    return this;
  }

  /** The nice level and its weight. */
  public TestTask nice(int nice) {
    this.nice = nice;
    this.weight = LoadWeights.of(policy, nice);
    return this;
  }

  /** A weight of its own (a cgroup share, say), whatever the nice level. */
  public TestTask weight(int weight) {
    this.weight = weight;
    return this;
  }

  /** The real-time priority of a FIFO or RR task. */
  public TestTask rtPriority(int priority) {
    this.rtPriority = priority;
    return this;
  }

  /** The CPUs it may run on; none means every CPU. */
  public TestTask allowed(int... cpus) {
    this.allowed = cpus.clone();
    return this;
  }

  /** The CPU it is on. */
  public TestTask on(int cpu) {
    this.cpu = cpu;
    return this;
  }

  /** Its state and whether it is queued. */
  public TestTask state(TaskState state, boolean queued) {
    this.state = state;
    this.onRq = queued;
    return this;
  }

  /** Makes it a CPU's idle task (policy IDLE, pid 0 by convention). */
  public TestTask idleTask() {
    this.idleTask = true;
    this.policy = Policy.IDLE;
    this.comm = "swapper/" + cpu;
    return this;
  }

  /** Charges {@code ns} of execution ({@link #sumExecNs()}). */
  public TestTask ran(long ns) {
    sumExecNs += ns;
    return this;
  }

  @Override
  public int pid() {
    return pid;
  }

  @Override
  public String comm() {
    return comm;
  }

  @Override
  public Policy policy() {
    return policy;
  }

  @Override
  public int nice() {
    return nice;
  }

  @Override
  public int weight() {
    return weight;
  }

  @Override
  public int rtPriority() {
    return rtPriority;
  }

  @Override
  public long dlRuntimeNs() {
    return 0;
  }

  @Override
  public long dlDeadlineNs() {
    return 0;
  }

  @Override
  public long dlPeriodNs() {
    return 0;
  }

  @Override
  public long customSliceNs() {
    return 0;
  }

  @Override
  public int cpu() {
    return cpu;
  }

  @Override
  public boolean allowedOn(int cpu) {
    if (allowed.length == 0) {
      return true;
    }
    for (int c : allowed) {
      if (c == cpu) {
        return true;
      }
    }
    return false;
  }

  @Override
  public int nrAllowed() {
    return allowed.length;
  }

  @Override
  public TaskState state() {
    return state;
  }

  @Override
  public boolean onRq() {
    return onRq;
  }

  @Override
  public boolean onCpu() {
    return false;
  }

  @Override
  public boolean isKthread() {
    return false;
  }

  @Override
  public boolean isIdleTask() {
    return idleTask;
  }

  @Override
  public int mmId() {
    return 1;
  }

  @Override
  public long sumExecNs() {
    return sumExecNs;
  }

  @Override
  public @Nullable Object classData() {
    return classData;
  }

  @Override
  public void setClassData(@Nullable Object data) {
    classData = data;
  }

  @Override
  public String toString() {
    return comm + "[" + pid + "]";
  }
}
