package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.block;
import static dev.schedlab.engine.core.Steps.kernel;
import static dev.schedlab.engine.core.Steps.mark;
import static dev.schedlab.engine.core.Steps.segment;
import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.sleepUntil;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.Steps.wake;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;

import dev.schedlab.engine.config.Dist;

/** Runs that exercise much of the model at once, for tests of whole-run properties. */
final class ExampleRuns {
  private ExampleRuns() {}

  /**
   * The run of examples/quickstart.yaml: on the small-x86 machine, two CPU hogs, two periodic
   * sleepers, a producer/consumer pair on a wait queue and a SCHED_FIFO cyclictest-like task.
   */
  static TestRun quickstart() {
    return TestRun.run()
        .name("quickstart")
        .tasks(
            task("hog").count(2).program(user(10 * MS)),
            task("ticker")
                .count(2)
                .nice(-5)
                .program(
                    sleepUntil(4 * MS, "periodic_wakeup"),
                    user(Dist.uniform(50 * US, 200 * US)),
                    kernel(20 * US)),
            task("producer").program(user(Dist.exp(300 * US)), wake("pipe", true), sleep(100 * US)),
            task("consumer")
                .program(
                    block("pipe"),
                    kernel(
                        segment(15 * US, true, false, "COND_RESCHED"),
                        segment(5 * US, false, false, "NONE")),
                    user(50 * US),
                    mark("items_consumed")),
            task("rt").fifo(50).program(sleepUntil(MS, "rt_wakeup"), user(30 * US)));
  }
}
