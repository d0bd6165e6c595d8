package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.kernel;
import static dev.schedlab.engine.core.Steps.lockIrqsOff;
import static dev.schedlab.engine.core.Steps.loop;
import static dev.schedlab.engine.core.Steps.segment;
import static dev.schedlab.engine.core.Steps.syscall;
import static dev.schedlab.engine.core.Steps.unlock;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.StepSpec.Segment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A loop inside a syscall's kernel path (a page walk kept as one page's segments and a count) runs
 * exactly as the same path written out: same events, same lock statistics, one entry and one exit
 * to user. (That a syscall's loop holds only syscall parts is the scenario loader's check.)
 */
class SyscallLoopTest {
  /** One page: a walk step ending in cond_resched, then a short section under the lock z. */
  private static final StepSpec PAGE =
      kernel(
          new Segment(Dist.uniform(100, 300), true, false, "COND_RESCHED"),
          lockIrqsOff("z"),
          segment(Dist.uniform(50, 150)),
          unlock("z"));

  private static Kernel run(StepSpec syscall) {
    Kernel k =
        TestRun.run()
            .duration(20 * MS)
            .cpus(1, 2, 2)
            .lock("z", LockSpec.Kind.SPINLOCK)
            .tasks(task("w").count(2).program(user(Dist.exp(2 * US)), syscall))
            .kernel();
    k.run(20_000_000);
    return k;
  }

  @Test
  void aLoopRunsAsThePathWrittenOut() {
    List<StepSpec> written = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      written.add(kernel(US));
      written.addAll(Collections.nCopies(4, PAGE));
    }
    StepSpec looped = loop(3, kernel(US), loop(4, PAGE));
    Kernel a = run(syscall(written.toArray(StepSpec[]::new)));
    Kernel b = run(syscall(looped));
    assertThat(a.events()).isGreaterThan(1000);
    assertThat(b.digest()).isEqualTo(a.digest());
    assertThat(b.metricsSnapshot().get("lock_stat"))
        .isEqualTo(a.metricsSnapshot().get("lock_stat"));
  }
}
