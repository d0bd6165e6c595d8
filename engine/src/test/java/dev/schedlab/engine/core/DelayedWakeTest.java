package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.block;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.TaskState;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/**
 * A task that blocks with negative lag beside a hog stays queued, delayed; woken, v6.12's {@code
 * ttwu_runnable()} requeues it in place, while with {@code feature.TTWU_DEQUEUE} its dequeue
 * completes and the wakeup chooses a CPU as for any sleeper: the idle one, unless it is pinned.
 */
class DelayedWakeTest {
  private static Kernel blockedBesideAHog(boolean ttwuDequeue) {
    return blockedBesideAHog(ttwuDequeue, "");
  }

  /** {@code b} blocks with the affinity {@code finalCpus} ("" = every CPU). */
  private static Kernel blockedBesideAHog(boolean ttwuDequeue, String finalCpus) {
    Kernel k =
        TestRun.run()
            .duration(20 * MS)
            .cpus(1, 2, 1)
            .noJitter()
            .feature(Param.TTWU_DEQUEUE, ttwuDequeue)
            .tasks(
                task("hog").cpus("0").program(user(100 * MS)),
                task("b")
                    .startOn(0)
                    .program(
                        new StepSpec.Affinity("0"),
                        user(3 * MS),
                        new StepSpec.Affinity(finalCpus),
                        block("q")))
            .kernel();
    Task b = named(k, "b");
    k.run(MS); // b runs its 3 ms beside the hog
    while (b.state == TaskState.RUNNING) {
      k.run(k.now + 1000);
    }
    k.run(k.now + 10_000); // off its CPU, still queued
    assertThat(b.onRq).isTrue();
    assertThat(b.delayed).as("blocked with negative lag: a delayed dequeue").isTrue();
    assertThat(b.cpu).isZero();
    assertThat(k.cpus[1].curr.idleTask).isTrue();
    k.thisCpu = 0;
    k.pathCost = 0;
    k.sched.wakeUp(b, 0);
    return k;
  }

  /** Wakeups that took {@code ttwu_runnable()}'s in-place path. */
  private static long requeuedInPlace(Kernel k) {
    return k.metrics.counter("sched.wakeups_runnable").value;
  }

  @Test
  void v612RequeuesTheDelayedTaskInPlace() {
    Kernel k = blockedBesideAHog(false);
    Task b = named(k, "b");
    assertThat(requeuedInPlace(k)).isEqualTo(1);
    assertThat(b.cpu).isZero();
    assertThat(b.onRq).isTrue();
    assertThat(b.delayed).isFalse();
  }

  @Test
  void withTtwuDequeueTheWakeupChoosesTheIdleCpu() {
    Kernel k = blockedBesideAHog(true);
    Task b = named(k, "b");
    assertThat(requeuedInPlace(k)).isZero();
    assertThat(b.cpu).isEqualTo(1);
    assertThat(b.delayed).isFalse();
    assertThat(k.cpus[0].nrRunning).as("only the hog left on CPU 0").isEqualTo(1);
  }

  @Test
  void withTtwuDequeueAPinnedTaskIsStillRequeuedInPlace() {
    Kernel k = blockedBesideAHog(true, "0");
    Task b = named(k, "b");
    assertThat(requeuedInPlace(k)).isEqualTo(1);
    assertThat(b.cpu).isZero();
    assertThat(b.onRq).isTrue();
    assertThat(b.delayed).isFalse();
    assertThat(k.cpus[0].nrRunning).as("the hog and b").isEqualTo(2);
  }

  private static Task named(Kernel k, String comm) {
    return k.tasks.stream().filter(t -> t.comm.equals(comm)).findFirst().orElseThrow();
  }
}
