package dev.schedlab.lab.workload;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import java.util.ArrayList;
import java.util.List;

/** Small builders for the task groups and programs tools expand into. */
final class Tasks {
  private Tasks() {}

  /** One SCHED_NORMAL task (nice 0), own process. */
  static TaskSpec normal(String name, String cpus, List<StepSpec> program) {
    return new TaskSpec(name, 1, "normal", 0, 0, 0, 0, 0, cpus, false, false, "own", 0, program);
  }

  /** A task created only by a fork step: SCHED_NORMAL, own process unless forked as a thread. */
  static TaskSpec forked(String name, List<StepSpec> program) {
    return new TaskSpec(name, 0, "normal", 0, 0, 0, 0, 0, "", false, false, "own", 0, program);
  }

  /**
   * One task with {@code policy} ({@code normal}, {@code fifo}, {@code rr}, ...) and rt priority.
   */
  static TaskSpec withPolicy(
      String name,
      String policy,
      int nice,
      int rtPrio,
      String cpus,
      boolean kthread,
      List<StepSpec> program) {
    return new TaskSpec(
        name, 1, policy, nice, rtPrio, 0, 0, 0, cpus, false, kthread, "own", 0, program);
  }

  static StepSpec user(long ns) {
    return new StepSpec.User(Dist.fixed(ns));
  }

  /** A syscall-shaped kernel path of preemptible segments, each ending as given. */
  static StepSpec kernel(StepSpec.Segment... segs) {
    return new StepSpec.Kernel(List.of(segs));
  }

  /** A preemptible segment. */
  static StepSpec.Segment seg(long ns, String ends) {
    return new StepSpec.Segment(Dist.fixed(ns), true, false, ends);
  }

  /** A preempt-disabled (spinlock) segment. */
  static StepSpec.Segment locked(long ns) {
    return new StepSpec.Segment(Dist.fixed(ns), false, false, "NONE");
  }

  /** A loop, or the body itself when {@code count == 1}. */
  static List<StepSpec> repeat(long count, List<StepSpec> body) {
    if (count == 1) {
      return body;
    }
    return List.of(new StepSpec.Loop((int) Math.min(count, Integer.MAX_VALUE), body));
  }

  /** {@code body} forever ({@code forever}) or {@code count} times, then exit. */
  static List<StepSpec> runThenExit(long count, List<StepSpec> body) {
    List<StepSpec> out = new ArrayList<>(repeat(count, body));
    out.add(new StepSpec.Exit());
    return out;
  }
}
