package dev.schedlab.plugins.preemptauto;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.PreemptPoint;
import dev.schedlab.api.ReschedBit;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import dev.schedlab.plugins.preemptauto.AutoModel.Mode;
import dev.schedlab.testkit.FakeKernel;
import dev.schedlab.testkit.TestTask;
import org.junit.jupiter.api.Test;

/** The H3/H4 table of kernel-model.md 1.6 / 3.3 for the three AUTO modes, as unit tests. */
class AutoModelTest {
  private static final FakeKernel KERNEL = new FakeKernel(4);

  private static TaskView task(int pid, boolean idle) {
    return idle ? TestTask.of(pid).idleTask() : TestTask.of(pid);
  }

  private static RqView rq(int cpu) {
    return KERNEL.rq(cpu);
  }

  private static final TaskView FAIR = task(10, false);
  private static final TaskView IDLE = task(0, true);

  @Test
  void namesAreTheScenarioModelNames() {
    assertThat(new AutoModel(Mode.NONE).name()).isEqualTo("auto-none");
    assertThat(new AutoModel(Mode.VOLUNTARY).name()).isEqualTo("auto-voluntary");
    assertThat(new AutoModel(Mode.FULL).name()).isEqualTo("auto-full");
  }

  @Test
  void h3BitPerModeAndReason() {
    AutoModel none = new AutoModel(Mode.NONE);
    AutoModel vol = new AutoModel(Mode.VOLUNTARY);
    AutoModel full = new AutoModel(Mode.FULL);
    RqView rq = rq(0);
    // Higher-class wakeup (RESCHED_PRIORITY, patch 26/30): eager only from voluntary up.
    assertThat(none.chooseBit(rq, FAIR, ReschedReason.WAKEUP_HIGHER_CLASS))
        .isEqualTo(ReschedBit.LAZY);
    assertThat(vol.chooseBit(rq, FAIR, ReschedReason.WAKEUP_HIGHER_CLASS)).isEqualTo(ReschedBit.NR);
    assertThat(full.chooseBit(rq, FAIR, ReschedReason.WAKEUP_HIGHER_CLASS))
        .isEqualTo(ReschedBit.NR);
    // Same-class wakeup, slice expiry, resched_cpu: lazy unless full.
    for (ReschedReason r :
        new ReschedReason[] {
          ReschedReason.WAKEUP_SAME_CLASS,
          ReschedReason.SLICE_EXPIRY_TICK,
          ReschedReason.RESCHED_CPU
        }) {
      assertThat(new AutoModel(Mode.NONE).chooseBit(rq, FAIR, r))
          .as("none %s", r)
          .isEqualTo(ReschedBit.LAZY);
      assertThat(new AutoModel(Mode.VOLUNTARY).chooseBit(rq, FAIR, r))
          .as("vol %s", r)
          .isEqualTo(ReschedBit.LAZY);
      assertThat(new AutoModel(Mode.FULL).chooseBit(rq, FAIR, r))
          .as("full %s", r)
          .isEqualTo(ReschedBit.NR);
    }
    // RESCHED_FORCE and an idle curr are eager in every mode.
    for (Mode m : Mode.values()) {
      assertThat(new AutoModel(m).chooseBit(rq, FAIR, ReschedReason.FORCE))
          .isEqualTo(ReschedBit.NR);
      assertThat(new AutoModel(m).chooseBit(rq, IDLE, ReschedReason.IDLE_CURR))
          .isEqualTo(ReschedBit.NR);
      assertThat(new AutoModel(m).chooseBit(rq, IDLE, ReschedReason.WAKEUP_SAME_CLASS))
          .isEqualTo(ReschedBit.NR);
    }
  }

  @Test
  void h4PointsPerMode() {
    for (Mode m : Mode.values()) {
      AutoModel a = new AutoModel(m);
      // CONFIG_PREEMPTION: IRQ exit and preempt_enable act on NR only.
      assertThat(a.honours(PreemptPoint.IRQ_EXIT_KERNEL, ReschedBit.NR)).isTrue();
      assertThat(a.honours(PreemptPoint.PREEMPT_ENABLE, ReschedBit.NR)).isTrue();
      assertThat(a.honours(PreemptPoint.IRQ_EXIT_KERNEL, ReschedBit.LAZY)).isFalse();
      assertThat(a.honours(PreemptPoint.PREEMPT_ENABLE, ReschedBit.LAZY)).isFalse();
      // cond_resched()/might_resched() are no-ops under PREEMPT_AUTO.
      for (ReschedBit b : ReschedBit.values()) {
        assertThat(a.honours(PreemptPoint.COND_RESCHED, b)).isFalse();
        assertThat(a.honours(PreemptPoint.MIGHT_RESCHED, b)).isFalse();
      }
      // Exit to user acts on both bits.
      assertThat(a.honours(PreemptPoint.EXIT_TO_USER, ReschedBit.NR)).isTrue();
      assertThat(a.honours(PreemptPoint.EXIT_TO_USER, ReschedBit.LAZY)).isTrue();
      assertThat(a.honours(PreemptPoint.EXIT_TO_USER, ReschedBit.NONE)).isFalse();
    }
  }

  @Test
  void tickUpgradesOnlyARescheduleTickRequestWithLazyAlreadySet() {
    AutoModel a = new AutoModel(Mode.NONE);
    RqView rq = rq(1);
    // Tick 1: the first slice-expiry request sets LAZY; not upgraded at the same tick.
    KERNEL.setClock(1_000_000);
    assertThat(a.chooseBit(rq, FAIR, ReschedReason.SLICE_EXPIRY_TICK)).isEqualTo(ReschedBit.LAZY);
    assertThat(a.tickUpgrade(rq, FAIR)).isFalse();
    // Tick 2 without a RESCHED_TICK request (nothing else queued): still lazy.
    KERNEL.setClock(2_000_000);
    assertThat(a.tickUpgrade(rq, FAIR)).isFalse();
    // Tick 3: another RESCHED_TICK with LAZY already set → NR.
    KERNEL.setClock(3_000_000);
    a.chooseBit(rq, FAIR, ReschedReason.SLICE_EXPIRY_TICK);
    assertThat(a.tickUpgrade(rq, FAIR)).isTrue();
  }

  @Test
  void lazyFromAWakeupIsUpgradedByTheNextTickRequestOnly() {
    AutoModel a = new AutoModel(Mode.VOLUNTARY);
    RqView rq = rq(2);
    KERNEL.setClock(500);
    assertThat(a.chooseBit(rq, FAIR, ReschedReason.WAKEUP_SAME_CLASS)).isEqualTo(ReschedBit.LAZY);
    KERNEL.setClock(1_000_000);
    assertThat(a.tickUpgrade(rq, FAIR)).isFalse();
    KERNEL.setClock(2_000_000);
    a.chooseBit(rq, FAIR, ReschedReason.SLICE_EXPIRY_TICK);
    assertThat(a.tickUpgrade(rq, FAIR)).isTrue();
  }

  @Test
  void fullNeverUpgradesBecauseItNeverSetsLazy() {
    AutoModel a = new AutoModel(Mode.FULL);
    RqView rq = rq(3);
    KERNEL.setClock(1);
    a.chooseBit(rq, FAIR, ReschedReason.SLICE_EXPIRY_TICK);
    KERNEL.setClock(2);
    a.chooseBit(rq, FAIR, ReschedReason.SLICE_EXPIRY_TICK);
    assertThat(a.tickUpgrade(rq, FAIR)).isFalse();
  }
}
