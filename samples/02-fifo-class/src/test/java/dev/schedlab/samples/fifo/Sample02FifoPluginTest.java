package dev.schedlab.samples.fifo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.Policy;
import dev.schedlab.api.SchedFlags;
import dev.schedlab.testkit.Comparison;
import dev.schedlab.testkit.FakeKernel;
import dev.schedlab.testkit.PluginKit;
import dev.schedlab.testkit.TestScenario;
import dev.schedlab.testkit.TestTask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The class alone (FakeKernel: the test calls the callbacks) and in a running kernel (PluginKit).
 */
class Sample02FifoPluginTest {
  @RegisterExtension static final PluginKit KIT = PluginKit.of(Sample02FifoPlugin::new);

  @Test
  void tasksRunInArrivalOrderAndTheTickTakesNothingAway() {
    FakeKernel k = new FakeKernel(2);
    FifoClass fifo = new FifoClass();
    fifo.init(k.machine(), k.services());
    TestTask a = TestTask.of(1).policy(Policy.EXT);
    TestTask b = TestTask.of(2).policy(Policy.EXT);
    fifo.enqueue(k.rq(0), a, SchedFlags.ENQUEUE_INITIAL);
    fifo.enqueue(k.rq(0), b, SchedFlags.ENQUEUE_WAKEUP);
    assertThat(fifo.pickNext(k.rq(0))).isSameAs(a);
    for (int i = 0; i < 100; i++) {
      fifo.tick(k.rq(0), a);
    }
    fifo.wakeupPreempt(k.rq(0), TestTask.of(3).policy(Policy.EXT), 0);
    assertThat(k.resched()).isEmpty();
    fifo.dequeue(k.rq(0), a, SchedFlags.DEQUEUE_SLEEP);
    assertThat(fifo.pickNext(k.rq(0))).isSameAs(b);
    assertThat(fifo.pickNext(k.rq(1))).isNull();
  }

  @Test
  void aTaskThatNeverBlocksKeepsItsCpu() throws Exception {
    TestScenario twoHogs =
        TestScenario.builder()
            .duration("100ms")
            .machine("preset", "small-x86")
            .task("first", t -> t.cpus("0").policy("ext").program("{user: 1ms}", "{mark: first}"))
            .task("second", t -> t.cpus("0").policy("ext").program("{user: 1ms}", "{mark: second}"))
            .build();
    Comparison c = KIT.compare(twoHogs);
    // The fair class shares CPU 0 between them; FIFO runs the first forever.
    assertThat(c.baseline().metric("mark.first")).isPositive();
    assertThat(c.baseline().metric("mark.second")).isPositive();
    assertThat(c.patched().metric("mark.first")).isGreaterThan(90);
    assertThat(c.patched().metricOrZero("mark.second")).isZero();
  }
}
