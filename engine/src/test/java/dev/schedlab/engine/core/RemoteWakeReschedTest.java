package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.block;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/**
 * A waker that activates a task on another, busy CPU reschedules that CPU at the end of the
 * activation, as {@code ttwu_do_activate()} calls {@code wakeup_preempt()} -> {@code
 * resched_curr()} last, under the target's rq lock: the running task sees {@code TIF_NEED_RESCHED}
 * and the reschedule IPI leaves only after the waker's activation cost.
 */
class RemoteWakeReschedTest {
  private static final long ACTIVATION =
      Param.TTWU_LOCAL.defaultValue() + 2 * Param.CACHELINE_SAME_LLC.defaultValue();

  @Test
  void theFlagAndTheIpiFollowTheActivation() {
    Kernel k =
        TestRun.run()
            .duration(10 * MS)
            .cpus(1, 2, 1)
            .noJitter()
            .tasks(
                task("hog").cpus("1").program(user(100 * MS)),
                task("rt").cpus("1").fifo(50).program(block("never")))
            .kernel();
    k.run(MS + MS / 2); // between two ticks (HZ=1000)
    Task hog = named(k, "hog");
    Task rt = named(k, "rt");
    assertThat(k.cpus[1].curr).isSameAs(hog);
    assertThat(rt.onRq).isFalse();
    long start = k.now;

    k.thisCpu = 0;
    k.pathCost = 0;
    k.sched.wakeUp(rt, 0); // a higher class: wakeup_preempt() reschedules CPU 1

    assertThat(rt.onRq).isTrue();
    assertThat(k.pathCost).isEqualTo(ACTIVATION + Param.IPI_SEND.defaultValue());
    assertThat(hog.needResched).as("flag written at the activation's end, not its start").isFalse();
    assertThat(k.cpus[1].ipiResched.time())
        .isEqualTo(start + ACTIVATION + Param.IPI_SAME_SOCKET.defaultValue());
    k.run(start + ACTIVATION - 1);
    assertThat(hog.needResched).isFalse();
    k.run(start + ACTIVATION);
    assertThat(hog.needResched).isTrue();
    while (k.cpus[1].curr != rt) {
      k.run(k.now + 10);
    }
    assertThat(k.now).isGreaterThan(start + ACTIVATION + Param.IPI_SAME_SOCKET.defaultValue());
  }

  private static Task named(Kernel k, String comm) {
    return k.tasks.stream().filter(t -> t.comm.equals(comm)).findFirst().orElseThrow();
  }
}
