package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.kernel;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/**
 * A parent that has run alone for 5 ms (its slice protection long over) forks on its only CPU. The
 * child, placed at the parent's vruntime with half a slice to its deadline, is the pick: v6.18
 * preempts the parent at the return from fork(), the NEXT_BUDDY rework ({@code
 * feature.FORK_NO_PREEMPT}) never lets a new task preempt (host/src/main/c/fork-preempt.c on the
 * project's guest).
 */
class ForkPreemptTest {
  /** The task running 50 us after the fork. */
  private static String runningAfterTheFork(boolean forkNoPreempt) {
    Kernel k =
        TestRun.run()
            .duration(20 * MS)
            .cpus(1, 1, 1)
            .hz(250)
            .noJitter()
            .feature(Param.PROTECT_QUANTUM, true) // v6.17+'s slice protection, as in 6.18
            .feature(Param.FORK_NO_PREEMPT, forkNoPreempt)
            .tasks(
                task("kid").count(0).program(user(MS), new StepSpec.Exit()),
                task("parent")
                    .program(
                        user(5 * MS),
                        new StepSpec.Fork("kid", "kid", -1),
                        kernel(1000), // a system call: its return to user is a preemption point
                        user(MS),
                        new StepSpec.Exit()))
            .kernel();
    k.run(5 * MS);
    while (k.tasks.stream().noneMatch(t -> t.comm.equals("kid"))) {
      k.run(k.now + 1000);
    }
    k.run(k.now + 50_000);
    return k.cpus[0].curr.comm;
  }

  @Test
  void v618LetsTheChildPreemptItsParent() {
    assertThat(runningAfterTheFork(false)).isEqualTo("kid");
  }

  @Test
  void theNextBuddyReworkLeavesTheParentRunning() {
    assertThat(runningAfterTheFork(true)).isEqualTo("parent");
  }
}
