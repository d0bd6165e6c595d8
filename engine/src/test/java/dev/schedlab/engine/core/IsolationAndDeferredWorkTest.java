package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.exit;
import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.S;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.DeferKind;
import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/** task_work, RCU callbacks with rcu_nocbs offload, and the nohz_full residual tick. */
class IsolationAndDeferredWorkTest {
  private static TestRun machine(int cpus, String isolated) {
    return TestRun.run().cpus(1, cpus, 1).idleStates("hlt-only").isolated(isolated);
  }

  private static long exitTime(int cpus, long perCpuCheckNs) {
    Kernel k =
        machine(cpus, "")
            .param(Param.MM_CID_PER_CPU, perCpuCheckNs)
            .tasks(task("once").cpus("0").program(user(150 * MS), exit()))
            .kernel();
    k.run(1_000_000_000);
    assertThat(TestKernels.counter(k, "mm_cid.scans"))
        .as("one scan after the 100 ms delay")
        .isEqualTo(1);
    assertThat(TestKernels.counter(k, "task_work.runs")).isEqualTo(1);
    return TestKernels.counter(k, "task.last_exit_ns");
  }

  @Test
  void mmCidWorkQueuedAtTheTickRunsInTheTaskAndDelaysItByTwoScansOfAllCpus() {
    long per = Param.MM_CID_PER_CPU.defaultValue();
    assertThat(exitTime(8, per) - exitTime(8, 0)).isEqualTo(2 * 8 * per);
    assertThat(exitTime(16, per) - exitTime(16, 0)).isEqualTo(2 * 16 * per);
  }

  /** A callback queued at 1 ms while a task runs on {@code queuingCpu}, which idles from 2 ms. */
  private static long[] rcuCallbackRunsOn(int queuingCpu) {
    Kernel k =
        machine(4, "2-3")
            .duration(100 * MS)
            .tasks(task("q").cpus("" + queuingCpu).program(user(2 * MS), sleep(S)))
            .kernel();
    k.run(1_000_000);
    long[] ran = {-1, -1};
    k.thisCpu = queuingCpu;
    k.services.defer(
        DeferKind.RCU_CALLBACK,
        null,
        queuingCpu,
        5_000,
        0,
        cpu -> {
          ran[0] = cpu;
          ran[1] = k.now;
        });
    k.run(100_000_000);
    return ran;
  }

  @Test
  void rcuCallbackOfAnOffloadedCpuRunsOnAHousekeepingCpuAfterTheGracePeriod() {
    long[] ran = rcuCallbackRunsOn(2);
    assertThat(ran[0]).isIn(0L, 1L);
    // The grace period starts at once (the rcuog kthread requests it) and ends at the first
    // force-quiescent-state scan, jiffies_till_first_fqs (3 at HZ 1000) and the timer wheel's
    // jiffy after it, which finds every CPU idle, CPU 2 (isolated, its task sleeping from 2 ms)
    // too; then the rcuo kthread runs.
    assertThat(ran[1]).isBetween(MS + 4 * TICK, MS + 4 * TICK + TICK / 10);
  }

  @Test
  void rcuCallbackOfAHousekeepingCpuRunsInItsSoftirq() {
    long[] ran = rcuCallbackRunsOn(1);
    assertThat(ran[0]).isEqualTo(1);
    // The next tick requests the grace period; it ends at a scan a jiffy later, and the tick
    // after that invokes the callback.
    assertThat(ran[1]).isBetween(1_000_000 + 2 * TICK, 1_000_000 + 5 * TICK);
  }

  private static final long TICK = MS; // HZ 1000

  @Test
  void nohzFullCpuWithOneTaskTakesAboutOneTickPerSecond() {
    Kernel k =
        machine(4, "2-3")
            .duration(3 * S)
            .tasks(task("iso").cpus("2").program(user(S)), task("hk").cpus("0").program(user(S)))
            .kernel();
    k.run(3_000_000_000L);
    assertThat(k.cpus[2].ticks).isBetween(2L, 5L);
    assertThat(k.cpus[0].ticks).isBetween(2_990L, 3_000L);
  }
}
