package dev.schedlab.report.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.report.timeline.Timeline.Kind;
import dev.schedlab.report.timeline.Timeline.Slice;
import org.junit.jupiter.api.Test;

class TimelineTest {
  @Test
  void switchesIdleStatesAndInterruptsBecomeSlicesClosedAtTheEnd() {
    Timeline t = new Timeline(2, 100);
    t.schedSwitch(10, 0, "swapper/0", 0, 120, 'R', "hog/0", 100, 120);
    t.irqEntry(15, 0, "hog/0", 100, 0, "timer");
    t.schedSwitch(30, 0, "hog/0", 100, 120, 'S', "swapper/0", 0, 120);
    t.cpuIdle(32, 0, "<idle>", 0, 2);
    t.cpuIdle(50, 0, "<idle>", 0, -1);
    t.schedSwitch(51, 0, "swapper/0", 0, 120, 'R', "hog/1", 101, 120);
    t.cpuIdle(5, 1, "<idle>", 0, 1);
    t.ipiEntry(60, 1, "<idle>", 0, "Function call interrupts");
    t.finish(100);

    assertThat(t.slices())
        .containsExactly(
            new Slice(0, 15, 15, Kind.IRQ, 0, "timer"),
            new Slice(0, 10, 30, Kind.TASK, 0, "hog/0 (pid 100)"),
            new Slice(0, 32, 50, Kind.IDLE, 2, null),
            new Slice(1, 60, 60, Kind.IRQ, 0, "Function call interrupts"),
            new Slice(0, 51, 100, Kind.TASK, 0, "hog/1 (pid 101)"),
            new Slice(1, 5, 100, Kind.IDLE, 1, null));
    assertThat(t.groups()).containsExactly("hog");
    assertThat(t.count(Kind.TASK)).isEqualTo(2);
    assertThat(t.count(Kind.IDLE)).isEqualTo(2);
    assertThat(t.count(Kind.IRQ)).isEqualTo(2);
    assertThat(t.maxIdleState()).isEqualTo(2);
    assertThat(t.downsampled()).isFalse();
  }

  @Test
  void aTaskGroupIsTheCommWithoutItsInstanceNumber() {
    assertThat(Timeline.group("hog/12")).isEqualTo("hog");
    assertThat(Timeline.group("kworker/0:1")).isEqualTo("kworker/0:1");
    assertThat(Timeline.group("rt")).isEqualTo("rt");
    assertThat(Timeline.group("a/")).isEqualTo("a/");
  }

  @Test
  void pastTheExactLimitTheTimelineKeepsCountsAndWhatRanLongestPerColumn() {
    Timeline t = new Timeline(1, 1_000_000);
    long now = 0;
    int slices = 0;
    // Each 1000 ns: task a for 700 ns, then task b for 300 ns, and one interrupt.
    while (slices <= Timeline.EXACT_LIMIT + 10) {
      t.schedSwitch(now, 0, "x", 1, 120, 'R', "a", 10, 120);
      t.irqEntry(now + 100, 0, "a", 10, 0, "timer");
      t.schedSwitch(now + 700, 0, "a", 10, 120, 'S', "b", 11, 120);
      now += 1000;
      slices += 3;
    }
    t.finish(now);
    assertThat(t.downsampled()).isTrue();
    assertThat(t.slices()).isEmpty();
    assertThat(t.count(Kind.TASK)).isEqualTo(2L * (now / 1000));
    assertThat(t.count(Kind.IRQ)).isEqualTo(now / 1000);
    Bins b = t.bins();
    assertThat(b.width()).isGreaterThanOrEqualTo(1000);
    for (int col = 0; col < b.columns() && (col + 1) * b.width() <= now; col++) {
      assertThat(b.dominant(0, col)).as("column %d", col).isEqualTo(0); // task group a
      assertThat(b.irqs(0, col)).isEqualTo((int) (b.width() / 1000));
    }
  }

  @Test
  void columnsMergeWhenTheRunOutlastsTheHorizonSoNoTimeIsLost() {
    Timeline t = new Timeline(1, 1000);
    long now = 0;
    for (int i = 0; i <= Timeline.EXACT_LIMIT; i++) {
      t.cpuIdle(now, 0, "<idle>", 0, 1);
      t.cpuIdle(now + 900, 0, "<idle>", 0, -1);
      now += 1000;
    }
    t.finish(now);
    Bins b = t.bins();
    assertThat((long) b.columns() * b.width()).isGreaterThanOrEqualTo(now);
    assertThat(b.dominant(0, 0)).isEqualTo(Bins.TASK_COLORS + 1);
    int last = (int) ((now - 1) / b.width());
    assertThat(b.dominant(0, last)).isEqualTo(Bins.TASK_COLORS + 1);
    assertThat(b.dominant(0, b.columns() - 1))
        .isEqualTo(last == b.columns() - 1 ? Bins.TASK_COLORS + 1 : -1);
  }
}
