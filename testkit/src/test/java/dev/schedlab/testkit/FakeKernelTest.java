package dev.schedlab.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.api.Policy;
import dev.schedlab.api.ReschedReason;
import org.junit.jupiter.api.Test;

class FakeKernelTest {
  @Test
  void recordsReschedulesAndAnswersWhatItModels() {
    FakeKernel k = new FakeKernel(2).setIdle(1, true).setClock(5_000);
    k.services().resched(1, ReschedReason.WAKEUP_SAME_CLASS);
    assertThat(k.resched()).containsExactly("1:WAKEUP_SAME_CLASS");
    assertThat(k.machine().nrCpus()).isEqualTo(2);
    assertThat(k.machine().cpu(1).isIdle()).isTrue();
    assertThat(k.machine().cpu(0).isIdle()).isFalse();
    assertThat(k.rq(1).clock()).isEqualTo(5_000);
    assertThat(k.services().now()).isEqualTo(5_000);
    assertThatThrownBy(() -> k.rq(0).nrRunning())
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("RqView.nrRunning()")
        .hasMessageContaining("PluginKit");
    assertThatThrownBy(() -> k.rq(2)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void testTaskWeightsFollowNiceAndPolicy() {
    assertThat(TestTask.of(1).weight()).isEqualTo(1024);
    assertThat(TestTask.of(1).nice(-5).weight()).isEqualTo(3121);
    assertThat(TestTask.of(1).policy(Policy.IDLE).weight()).isEqualTo(3);
    TestTask pinned = TestTask.of(2).allowed(0, 2).ran(7);
    assertThat(pinned.allowedOn(2)).isTrue();
    assertThat(pinned.allowedOn(1)).isFalse();
    assertThat(pinned.sumExecNs()).isEqualTo(7);
    assertThat(TestTask.of(0).idleTask().isIdleTask()).isTrue();
  }
}
