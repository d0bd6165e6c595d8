package dev.schedlab.report.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.report.SmallRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FtraceReaderTest {
  @TempDir Path dir;

  @Test
  void aTraceReadBackGivesTheTimelineTheRunItselfFed() throws Exception {
    SmallRun run = SmallRun.in(dir);
    Timeline read = new Timeline(2, run.node().get("sim_ns").asLong());
    FtraceReader.read(run.trace(), read);
    read.finish(run.node().get("sim_ns").asLong());
    assertThat(run.live().slices()).isNotEmpty();
    assertThat(read.slices()).isEqualTo(run.live().slices());
    assertThat(FtraceReader.cpus(run.trace())).hasValue(2);
  }

  @Test
  void theSliceCountsAreTheTracesSwitchInsIdleEntriesAndInterrupts() throws Exception {
    SmallRun run = SmallRun.in(dir);
    List<String> lines = Files.readAllLines(run.trace());
    long switchIns =
        lines.stream()
            .filter(l -> l.contains(": sched_switch: ") && !l.contains("next_pid=0 "))
            .count();
    long idle =
        lines.stream()
            .filter(l -> l.contains(": cpu_idle: ") && !l.contains("state=4294967295"))
            .count();
    long irqs =
        lines.stream()
            .filter(l -> l.contains(": irq_handler_entry: ") || l.contains(": ipi_entry: "))
            .count();
    assertThat(switchIns).isPositive();
    assertThat(idle).isPositive();
    assertThat(irqs).isPositive();
    assertThat(run.live().count(Timeline.Kind.TASK)).isEqualTo(switchIns);
    assertThat(run.live().count(Timeline.Kind.IDLE)).isEqualTo(idle);
    assertThat(run.live().count(Timeline.Kind.IRQ)).isEqualTo(irqs);
  }

  @Test
  void microsecondTimestampsAndKernelStyleLinesAreRead() throws Exception {
    Path f = dir.resolve("k.trace");
    Files.writeString(
        f,
        String.join(
            "\n",
            "# tracer: nop",
            "#                                _-----=> irqs-off",
            "# entries-in-buffer/entries-written: 2/2   #P:4",
            "          <idle>-0       [003] d..2.  1234.000120: sched_switch: prev_comm=swapper/3 prev_pid=0"
                + " prev_prio=120 prev_state=R ==> next_comm=kworker/3:1 next_pid=77 next_prio=120",
            "     kworker/3:1-77      [003] d..2.  1234.000470: sched_switch: prev_comm=kworker/3:1 prev_pid=77"
                + " prev_prio=120 prev_state=I ==> next_comm=swapper/3 next_pid=0 next_prio=120",
            "          <idle>-0       [003] d..1.  1234.000480: sched_wakeup_new: comm=x pid=9 prio=120 target_cpu=001",
            ""));
    Timeline t = new Timeline(4, 0);
    FtraceReader.read(f, t);
    assertThat(t.slices())
        .containsExactly(
            new Timeline.Slice(
                3,
                1_234_000_120_000L,
                1_234_000_470_000L,
                Timeline.Kind.TASK,
                0,
                "kworker/3:1 (pid 77)"));
    assertThat(FtraceReader.cpus(f)).hasValue(4);
  }

  @Test
  void aLineThatIsNoEventIsAnErrorNamingFileAndLine() throws Exception {
    Path f = dir.resolve("bad.trace");
    Files.writeString(
        f,
        "# tracer: nop\n#P:2\n  x-1 [000] d... 0.000000001: cpu_idle: state=1 cpu_id=0\nhello\n");
    assertThatThrownBy(() -> FtraceReader.read(f, new Timeline(2, 10)))
        .isInstanceOf(TraceFormatException.class)
        .hasMessage(
            f
                + ":4: not an ftrace event line (expected 'comm-pid [cpu] flags sec.frac: event: fields')");
    Path g = dir.resolve("field.trace");
    Files.writeString(
        g, "# tracer: nop\n  x-1 [000] d... 0.000000001: sched_switch: prev_comm=a prev_pid=zz\n");
    assertThatThrownBy(() -> FtraceReader.read(g, new Timeline(2, 10)))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining(g + ":2: sched_switch: ");
  }
}
