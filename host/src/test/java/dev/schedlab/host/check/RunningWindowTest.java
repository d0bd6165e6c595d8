package dev.schedlab.host.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.host.HostException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A background command sampled while it runs. */
class RunningWindowTest {
  @Test
  void samplesTheRunningCommandTwiceThenWaitsForItsCleanEnd() throws HostException {
    int[] calls = {0};
    RunningWindow.Samples<Integer> s =
        RunningWindow.measure(
            List.of("sleep", Integer.toString(RunningWindow.runSeconds(1))),
            1,
            p -> {
              assertThat(p.isAlive()).isTrue(); // sampled while it runs
              return ++calls[0];
            });
    assertThat(s.before()).isEqualTo(1);
    assertThat(s.after()).isEqualTo(2);
    assertThat(s.seconds()).isPositive();
  }

  @Test
  void aCommandThatEndsBeforeTheWindowIsAnError() {
    assertThatThrownBy(() -> RunningWindow.measure(List.of("true"), 1, p -> 0))
        .isInstanceOf(HostException.class)
        .hasMessageContaining("true ended before the measurement did (exit 0)");
  }
}
