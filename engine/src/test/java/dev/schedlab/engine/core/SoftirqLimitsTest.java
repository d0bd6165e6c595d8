package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.kernel;
import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.S;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.TaskState;
import dev.schedlab.engine.config.StepSpec.Segment;
import org.junit.jupiter.api.Test;

/**
 * rcu_do_batch()'s batch limit, handle_softirqs()'s restart rule and ksoftirqd, and the RCU
 * callbacks a kernel path queues.
 */
class SoftirqLimitsTest {
  private static final long CB_NS = 2_000;

  /** One CPU busy with a spinning task at 1 ms, {@code done} callbacks ready to invoke on it. */
  private static Kernel busyWithDone(int done) {
    Kernel k =
        TestRun.run().duration(S).cpus(1, 1, 1).tasks(task("spin").program(user(S))).kernel();
    k.run(MS);
    Cpu cpu = k.cpus[0];
    assertThat(cpu.curr.idleTask).isFalse();
    for (int i = 0; i < done; i++) {
      cpu.rcuPending.add(new WorkItem(CB_NS, c -> {}, 0));
    }
    return k;
  }

  @Test
  void aBatchStopsAtTheLimitOnABusyCpuAndRaisesRcuSoftirqForTheRest() {
    Kernel k = busyWithDone(25);
    Cpu cpu = k.cpus[0];
    cpu.curr.needResched = true;
    k.pathCost = 0;
    k.rcu.core(cpu);
    assertThat(TestKernels.counter(k, "deferred.rcu_callbacks")).isEqualTo(10); // blimit
    assertThat(cpu.rcuPending).hasSize(15);
    assertThat(k.rcu.raised(cpu)).as("invoke_rcu_core() for the rest").isTrue();
    k.rcu.takeSoftirq(cpu);
    k.rcu.core(cpu); // a later RCU_SOFTIRQ
    assertThat(TestKernels.counter(k, "deferred.rcu_callbacks")).isEqualTo(20);
  }

  @Test
  void theLimitIsAFractionOfALongDoneList() {
    Kernel k = busyWithDone(2560);
    k.rcu.core(k.cpus[0]);
    assertThat(TestKernels.counter(k, "deferred.rcu_callbacks")).isEqualTo(2560 >> 7);
  }

  @Test
  void theIdleTaskWithoutAReschedulePendingInvokesEveryDoneCallback() {
    Kernel k = TestRun.run().duration(S).cpus(1, 1, 1).tasks().kernel();
    k.run(MS);
    Cpu cpu = k.cpus[0];
    assertThat(cpu.curr.idleTask).isTrue();
    for (int i = 0; i < 25; i++) {
      cpu.rcuPending.add(new WorkItem(CB_NS, c -> {}, 0));
    }
    k.rcu.core(cpu);
    assertThat(TestKernels.counter(k, "deferred.rcu_callbacks")).isEqualTo(25);
    assertThat(k.rcu.raised(cpu)).isFalse();
  }

  @Test
  void theSoftirqLoopRestartsTenPassesThenLeavesTheRestToKsoftirqd() {
    Kernel k = busyWithDone(250);
    Cpu cpu = k.cpus[0];
    k.rcu.invokeCore(cpu);
    k.pathCost = 0;
    k.irqs.runSoftirqs(cpu);
    assertThat(TestKernels.counter(k, "softirq.rcu")).isEqualTo(10); // MAX_SOFTIRQ_RESTART
    assertThat(TestKernels.counter(k, "deferred.rcu_callbacks")).isEqualTo(100);
    assertThat(k.pathCost).isGreaterThanOrEqualTo(100 * CB_NS);
    Task ksoftirqd = cpu.ksoftirqd;
    assertThat(ksoftirqd).isNotNull();
    assertThat(ksoftirqd.state).isEqualTo(TaskState.RUNNING);
    assertThat(TestKernels.counter(k, "softirq.ksoftirqd_wakeups")).isEqualTo(1);

    k.run(S);
    assertThat(TestKernels.counter(k, "deferred.rcu_callbacks"))
        .as("ksoftirqd ran the rest")
        .isEqualTo(250);
    assertThat(ksoftirqd.sumExecNs()).isGreaterThanOrEqualTo(150 * CB_NS);
  }

  @Test
  void aReschedulePendingStopsTheLoopAfterOnePass() {
    Kernel k = busyWithDone(250);
    Cpu cpu = k.cpus[0];
    cpu.curr.needResched = true;
    k.rcu.invokeCore(cpu);
    k.irqs.runSoftirqs(cpu);
    assertThat(TestKernels.counter(k, "softirq.rcu")).isEqualTo(1);
    assertThat(TestKernels.counter(k, "deferred.rcu_callbacks")).isEqualTo(10);
    assertThat(TestKernels.counter(k, "softirq.ksoftirqd_wakeups")).isEqualTo(1);
  }

  @Test
  void aKernelPathQueuesItsCallbacksWhichRunAfterAGracePeriod() {
    Kernel k =
        TestRun.run()
            .duration(S)
            .cpus(1, 2, 1)
            .tasks(
                task("freer")
                    .cpus("0")
                    .program(kernel(Segment.callRcu(3, 5_000)), user(MS), sleep(10 * S)))
            .kernel();
    k.run(S);
    assertThat(TestKernels.counter(k, "deferred.rcu_callbacks")).isEqualTo(3);
    assertThat(TestKernels.counter(k, "rcu.grace_periods")).isEqualTo(1);
    assertThat(TestKernels.counter(k, "deferred.work_ns_on_housekeeping_cpus"))
        .isEqualTo(3 * (5_000 + 100)); // each plus cost.rcu_cb_overhead
  }
}
