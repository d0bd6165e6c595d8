package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ToolArgsTest {
  static final List<ToolArgs.Opt> OPTS =
      List.of(
          ToolArgs.Opt.of("i", "interval", ToolArgs.Arg.REQUIRED),
          ToolArgs.Opt.of("t", "threads", ToolArgs.Arg.OPTIONAL),
          ToolArgs.Opt.of("m", "mlockall", ToolArgs.Arg.NONE),
          ToolArgs.Opt.of(null, "latency", ToolArgs.Arg.REQUIRED));

  @Test
  void getoptForms() throws Exception {
    ToolArgs a = ToolArgs.parse("x", "-i100 -t -m --latency=1000", OPTS);
    assertThat(a.integer("interval", 0, 0, 1000)).isEqualTo(100);
    assertThat(a.has("threads")).isTrue();
    assertThat(a.text("threads", "")).isEmpty();
    assertThat(a.integer("latency", 0, 0, 10_000)).isEqualTo(1000);
    ToolArgs b = ToolArgs.parse("x", "--interval 50 -t 4", OPTS);
    assertThat(b.integer("interval", 0, 0, 1000)).isEqualTo(50);
    assertThat(b.integer("threads", 0, 0, 10)).isEqualTo(4);
  }

  @Test
  void strictErrorsNameTheOption() {
    assertThatThrownBy(() -> ToolArgs.parse("x", "-z", OPTS)).hasMessage("x: unknown option -z");
    assertThatThrownBy(() -> ToolArgs.parse("x", "--nope=1", OPTS))
        .hasMessage("x: unknown option --nope");
    assertThatThrownBy(() -> ToolArgs.parse("x", "-i", OPTS))
        .hasMessageContaining("-i needs a value");
    assertThatThrownBy(() -> ToolArgs.parse("x", "-i abc", OPTS).integer("interval", 0, 0, 9))
        .hasMessageContaining("--interval");
  }

  @Test
  void timesWithUnits() throws Exception {
    ToolArgs a = ToolArgs.parse("x", "--latency 2ms", OPTS);
    assertThat(a.timeNs("latency", 0, 1_000_000_000L)).isEqualTo(2_000_000);
    assertThat(a.timeOf("d", "1m", 1)).isEqualTo(60_000_000_000L);
    assertThat(a.timeOf("d", "30", 1_000_000_000L)).isEqualTo(30_000_000_000L);
  }
}
