package dev.schedlab.examples.wvtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.Policy;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.SchedFlags;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import dev.schedlab.testkit.FakeKernel;
import dev.schedlab.testkit.TestTask;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WeightedVtimeClassTest {
  private static final long TICK = 4_000_000L;
  private static final long SLICE = 20_000_000L;

  private final FakeKernel kernel = new FakeKernel(4);
  private final WeightedVtimeClass cls = new WeightedVtimeClass(SLICE);

  WeightedVtimeClassTest() {
    cls.init(kernel.machine(), kernel.services());
  }

  /** A SCHED_EXT task of weight {@code weight} allowed on {@code allowed} (all CPUs if none). */
  private static TestTask task(int pid, int weight, int... allowed) {
    return TestTask.of(pid).policy(Policy.EXT).weight(weight).allowed(allowed);
  }

  /** Runs CPU {@code cpu} tick by tick for {@code ns}, switching when the class asks to. */
  private void run(int cpu, long ns) {
    RqView rq = kernel.rq(cpu);
    TaskView curr = cls.pickNext(rq);
    cls.setNext(rq, curr);
    for (long t = 0; t < ns; t += TICK) {
      ((TestTask) curr).ran(TICK);
      cls.updateCurr(rq, curr, TICK);
      int before = kernel.resched().size();
      cls.tick(rq, curr);
      if (kernel.resched().size() > before) {
        cls.putPrev(rq, curr);
        curr = cls.pickNext(rq);
        cls.setNext(rq, curr);
      }
    }
  }

  @Test
  void cpuTimeIsSharedInProportionToWeight() {
    TestTask heavy = task(1, 2048);
    TestTask light = task(2, 1024);
    cls.enqueue(kernel.rq(0), heavy, SchedFlags.ENQUEUE_INITIAL);
    cls.enqueue(kernel.rq(0), light, SchedFlags.ENQUEUE_INITIAL);
    run(0, 3_000_000_000L);
    double ratio = (double) heavy.sumExecNs() / light.sumExecNs();
    assertThat(ratio).isBetween(1.9, 2.1);
  }

  @Test
  void sliceExpiresAtTheTickOnlyWhenAnotherTaskWaits() {
    TestTask a = task(1, 1024);
    RqView rq = kernel.rq(0);
    cls.enqueue(rq, a, SchedFlags.ENQUEUE_INITIAL);
    cls.setNext(rq, cls.pickNext(rq));
    for (int i = 0; i < 10; i++) {
      cls.updateCurr(rq, a, TICK);
      cls.tick(rq, a);
    }
    assertThat(kernel.resched()).as("alone: slice refilled, no resched").isEmpty();

    TestTask b = task(2, 1024);
    cls.enqueue(rq, b, SchedFlags.ENQUEUE_WAKEUP);
    for (int i = 1; i <= 5; i++) {
      cls.updateCurr(rq, a, TICK);
      cls.tick(rq, a);
      assertThat(kernel.resched()).hasSize(i < 5 ? 0 : 1);
    }
    assertThat(kernel.resched()).containsExactly("0:SLICE_EXPIRY_TICK");
    assertThat(cls.nrQueued(rq)).isEqualTo(2);
  }

  @Test
  void wakingTaskBanksAtMostOneSliceOfCredit() {
    TestTask runner = task(1, 1024);
    TestTask sleeper = task(2, 1024);
    RqView rq = kernel.rq(0);
    cls.enqueue(rq, runner, SchedFlags.ENQUEUE_INITIAL);
    cls.enqueue(rq, sleeper, SchedFlags.ENQUEUE_INITIAL);
    cls.dequeue(rq, sleeper, SchedFlags.DEQUEUE_SLEEP);
    run(0, 1_000_000_000L); // the runner alone for 1 s: vtimeNow ~ 1 s
    cls.enqueue(rq, sleeper, SchedFlags.ENQUEUE_WAKEUP);
    WeightedVtimeClass.Entity e = (WeightedVtimeClass.Entity) sleeper.classData();
    assertThat(e.vtime).isEqualTo(cls.vtimeNow() - SLICE);
    assertThat(cls.pickNext(rq)).isSameAs(sleeper);
  }

  @Test
  void noWakeupPreemption() {
    TestTask a = task(1, 1024);
    cls.enqueue(kernel.rq(0), a, SchedFlags.ENQUEUE_INITIAL);
    cls.wakeupPreempt(kernel.rq(0), task(2, 88761), SchedFlags.WF_TTWU);
    assertThat(kernel.resched()).isEmpty();
  }

  @Test
  void pickNextOnlySeesTasksEnqueuedOnThatCpu() {
    TestTask a = task(1, 1024);
    TestTask b = task(2, 1024);
    cls.enqueue(kernel.rq(0), a, SchedFlags.ENQUEUE_INITIAL);
    cls.enqueue(kernel.rq(1), b, SchedFlags.ENQUEUE_INITIAL);
    assertThat(cls.pickNext(kernel.rq(0))).isSameAs(a);
    assertThat(cls.pickNext(kernel.rq(1))).isSameAs(b);
    assertThat(cls.pickNext(kernel.rq(2))).isNull();
    cls.dequeue(kernel.rq(0), a, SchedFlags.DEQUEUE_SLEEP);
    assertThat(cls.pickNext(kernel.rq(0))).isNull();
    assertThat(cls.nrQueued(kernel.rq(1))).isEqualTo(1);
  }

  @Test
  void selectCpuPrefersIdlePrevThenAnyIdleAllowedThenPrev() {
    TestTask any = task(1, 1024);
    kernel.setIdle(1, true);
    kernel.setIdle(3, true);
    assertThat(cls.selectCpu(any, 1, 0, 0)).isEqualTo(1);
    assertThat(cls.selectCpu(any, 2, 0, 0)).isEqualTo(3);
    TestTask pinned = task(2, 1024, 0, 2);
    assertThat(cls.selectCpu(pinned, 2, 0, 0)).as("no allowed CPU idle").isEqualTo(2);
    assertThat(cls.selectCpu(task(3, 1024, 1), 2, 0, 0)).as("prev not allowed").isEqualTo(1);
    kernel.setIdle(1, false);
    kernel.setIdle(3, false);
    assertThat(cls.selectCpu(task(4, 1024, 3), 2, 0, 0)).isEqualTo(3);
  }

  @Test
  void pluginContributesTheClassWithTheSliceOption() {
    WeightedVtimePlugin plugin = new WeightedVtimePlugin();
    assertThat(plugin.descriptor().id()).isEqualTo("weighted-vtime");
    assertThat(plugin.descriptor().models()).contains("scx_simple");
    assertThat(plugin.descriptor().hooks()).isEmpty();
    assertThat(plugin.descriptor().conflicts()).isEmpty();
    assertThat(plugin.optionKeys()).containsExactly("slice");

    List<SchedulingClass> added = new ArrayList<>();
    Contributions c =
        new Contributions() {
          @Override
          public <H> void hook(Class<H> type, H implementation) {
            throw new AssertionError("no hooks expected");
          }

          @Override
          public void addSchedulingClass(SchedulingClass schedulingClass) {
            added.add(schedulingClass);
          }

          @Override
          public void addPreemptionModel(PreemptionModel model) {
            throw new AssertionError();
          }

          @Override
          public void addIdlePolicy(IdlePolicy policy) {
            throw new AssertionError();
          }
        };
    plugin.contribute(c, PluginOptions.none("weighted-vtime"));
    plugin.contribute(c, new PluginOptions("weighted-vtime", Map.of("slice", "5ms")));
    assertThat(added)
        .extracting(s -> ((WeightedVtimeClass) s).sliceNs())
        .containsExactly(20_000_000L, 5_000_000L);
    assertThat(added.get(0).name()).isEqualTo("wvtime");
    assertThat(added.get(0).rank()).isEqualTo(SchedulingClass.RANK_EXT);
    assertThat(added.get(0).handles(Policy.EXT)).isTrue();
    assertThat(added.get(0).handles(Policy.NORMAL)).isFalse();
    assertThatThrownBy(
            () -> plugin.contribute(c, new PluginOptions("weighted-vtime", Map.of("slice", "0"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("slice");
  }
}
