package dev.schedlab.lab.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FtraceWriterTest {
  /** Approximates Perfetto's systrace_line_tokenizer.cc regex. */
  static final Pattern SYSTRACE =
      Pattern.compile(
          "^\\s*(.+)-(\\d+)\\s+(\\(.*?\\)\\s+)?\\[(\\d+)\\]\\s+(\\S+\\s+)?(\\d+\\.\\d+):\\s+(\\S+):\\s*(.*)$");

  @TempDir Path dir;

  static void writeSome(FtraceWriter w) {
    w.cpuIdle(1_000, 0, "<idle>", 0, 1);
    w.irqEntry(2_500_000, 0, "<idle>", 0, 0, "timer");
    w.cpuIdle(2_500_000, 0, "<idle>", 0, -1);
    w.schedWaking(2_501_000, 0, "<idle>", 0, "rt worker", 42, 49, 1);
    w.ipiSend(2_502_000, 0, "<idle>", 0, 1, "Rescheduling interrupts");
    w.irqExit(2_503_000, 0, "<idle>", 0, 0);
    w.ipiEntry(2_504_000, 1, "<idle>", 0, "Rescheduling interrupts");
    w.ipiExit(2_505_000, 1, "<idle>", 0, "Function call interrupts");
    w.schedWakeup(2_506_000, 1, "<idle>", 0, "rt worker", 42, 49, 1);
    w.schedSwitch(1_002_507_000, 1, "<idle>", 0, 120, 'R', "rt worker", 42, 49);
    w.wakeIdleWithoutIpi(1_002_508_000, 0, "ipistorm/8", 100, 16);
  }

  @Test
  void linesMatchPerfettoRegexAndHeaderEndsWithNrCpus() throws Exception {
    Path target = dir.resolve("trace.txt");
    try (FtraceWriter w = FtraceWriter.open(target, 8)) {
      assertThat(w.enabled()).isTrue();
      writeSome(w);
    }
    List<String> lines = Files.readAllLines(target);
    assertThat(lines.get(0)).isEqualTo("# tracer: nop");
    List<String> comments =
        lines.stream().filter(l -> l.startsWith("#")).collect(Collectors.toList());
    assertThat(comments.get(comments.size() - 1)).endsWith("#P:8");
    int lastComment = lines.indexOf(comments.get(comments.size() - 1));
    List<String> events = lines.subList(lastComment + 1, lines.size());
    assertThat(events).hasSize(11).allSatisfy(l -> assertThat(l).matches(SYSTRACE));
    assertThat(events.get(0))
        .isEqualTo(
            String.format(
                "%16s-%-7d [%03d] d... %5d.%09d: %s",
                "<idle>", 0, 0, 0, 1000, "cpu_idle: state=1 cpu_id=0"));
    assertThat(events.get(2)).endsWith("cpu_idle: state=4294967295 cpu_id=0");
    assertThat(events.get(1)).endsWith("irq_handler_entry: irq=0 name=timer");
    assertThat(events.get(3))
        .endsWith("sched_waking: comm=rt_worker pid=42 prio=49 target_cpu=001");
    assertThat(events.get(6)).endsWith("ipi_entry: (Rescheduling interrupts)");
    assertThat(events.get(9))
        .contains(
            "[001] d...     1.002507000: sched_switch: prev_comm=<idle> prev_pid=0"
                + " prev_prio=120 prev_state=R ==> next_comm=rt_worker next_pid=42 next_prio=49");
    assertThat(events.get(10))
        .endsWith("[000] d...     1.002508000: sched_wake_idle_without_ipi: cpu=16");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).containsExactly(target);
    }
  }

  @Test
  void abortLeavesNoFileAndKeepsOldTarget() throws Exception {
    Path target = dir.resolve("trace.txt");
    FtraceWriter w = FtraceWriter.open(target, 2);
    writeSome(w);
    w.abort();
    w.close(); // no effect after abort
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
    Files.writeString(target, "old");
    FtraceWriter w2 = FtraceWriter.open(target, 2);
    writeSome(w2);
    assertThat(Files.readString(target)).isEqualTo("old");
    w2.abort();
    assertThat(Files.readString(target)).isEqualTo("old");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).containsExactly(target);
    }
  }

  @Test
  void closeReplacesTargetAtomically() throws Exception {
    Path target = dir.resolve("sub").resolve("trace.txt");
    FtraceWriter w = FtraceWriter.open(target, 4);
    writeSome(w);
    assertThat(target).doesNotExist();
    w.close();
    assertThat(Files.readString(target)).contains("#P:4").contains("sched_switch");
  }
}
