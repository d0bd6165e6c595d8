package dev.schedlab.traceimport.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.traceimport.TraceInputException;
import org.junit.jupiter.api.Test;

class TraceReaderTest {
  private static final String FTRACE =
      String.join(
          "\n",
          "# tracer: nop",
          "#",
          "# entries-in-buffer/entries-written: 4/4   #P:2",
          "#",
          " VM Periodic Tas-5572    [000] d..2.  2085.994802: sched_waking: comm=C1 CompilerThre"
              + " pid=9426 prio=120 target_cpu=001",
          "            java-9402    [000] d.h..  2085.994810: local_timer_entry: vector=236",
          "       sched-pipe-9845    [001] d..2.  2085.995016: sched_switch: prev_comm=sched-pipe"
              + " prev_pid=9845 prev_prio=120 prev_state=S ==> next_comm=C1 CompilerThre"
              + " next_pid=9426 next_prio=120",
          "            bash-9841    [001] .....  2085.995100: sched_process_fork: comm=bash pid=9841"
              + " child_comm=bash child_pid=9846",
          "");

  @Test
  void readsTracefsTextWithCommsThatHoldSpacesAndDashes() throws Exception {
    Trace t = TraceReader.parse("t.txt", FTRACE, null);
    assertThat(t.format()).isEqualTo(TraceFormat.FTRACE);
    assertThat(t.nrCpus()).isEqualTo(2);
    assertThat(t.events()).hasSize(4);
    TraceEvent.Wake w = (TraceEvent.Wake) t.events().get(0);
    assertThat(w.at().comm()).isEqualTo("VM Periodic Tas");
    assertThat(w.at().pid()).isEqualTo(5572);
    assertThat(w.comm()).isEqualTo("C1 CompilerThre");
    assertThat(w.targetCpu()).isEqualTo(1);
    assertThat(w.at().timeNs()).isEqualTo(2085_994_802_000L);
    TraceEvent.Irq irq = (TraceEvent.Irq) t.events().get(1);
    assertThat(irq.at().context()).isEqualTo(Context.HARDIRQ);
    TraceEvent.Switch s = (TraceEvent.Switch) t.events().get(2);
    assertThat(s.prevComm()).isEqualTo("sched-pipe");
    assertThat(s.prevState()).isEqualTo("S");
    assertThat(s.nextComm()).isEqualTo("C1 CompilerThre");
    assertThat(s.nextPid()).isEqualTo(9426);
    assertThat(t.events().get(3)).isInstanceOf(TraceEvent.Fork.class);
    assertThat(t.warnings().isEmpty()).isTrue();
  }

  @Test
  void readsTraceCmdReportsPluginFormat() throws Exception {
    String text =
        String.join(
            "\n",
            "cpus=4",
            " C2 CompilerThre-1617  [003]  3235.750416: sched_switch:         C2 CompilerThre:1617"
                + " [120] R+ ==> C1 CompilerThre:1554 [120]",
            "            java-1541  [001]  3235.750407: sched_wakeup:         C1 CompilerThre:1554"
                + " [120] CPU:000",
            "");
    Trace t = TraceReader.parse("r.txt", text, null);
    assertThat(t.format()).isEqualTo(TraceFormat.TRACE_CMD);
    assertThat(t.nrCpus()).isEqualTo(4);
    // sorted by time: the wakeup came first
    TraceEvent.Wake w = (TraceEvent.Wake) t.events().get(0);
    assertThat(w.comm()).isEqualTo("C1 CompilerThre");
    TraceEvent.Switch s = (TraceEvent.Switch) t.events().get(1);
    assertThat(s.prevRunnable()).isTrue();
    assertThat(s.prevPid()).isEqualTo(1617);
    assertThat(s.at().cpu()).isEqualTo(3);
  }

  @Test
  void readsPerfSchedScriptAndWarnsOnceAboutEventsItDoesNotUse() throws Exception {
    String text =
        String.join(
            "\n",
            " C2 CompilerThre 15904 [000]  2349.962300: sched:sched_stat_runtime: comm=C2"
                + " CompilerThre pid=15904 runtime=3875871 [ns]",
            "            perf 15918 [001]  2349.962409:       sched:sched_switch: prev_comm=perf"
                + " prev_pid=15918 prev_prio=120 prev_state=S ==> next_comm=perf next_pid=15919"
                + " next_prio=120",
            "            perf 15919 [001]  2349.962500: sched:sched_stat_runtime: comm=perf"
                + " pid=15919 runtime=1 [ns]",
            "");
    Trace t = TraceReader.parse("p.txt", text, null);
    assertThat(t.format()).isEqualTo(TraceFormat.PERF);
    assertThat(t.events()).hasSize(1);
    assertThat(t.nrCpus()).isEqualTo(2); // no header: highest CPU + 1, with a warning
    assertThat(t.warnings().count("unknown:sched_stat_runtime")).isEqualTo(2);
    assertThat(t.warnings().lines())
        .anyMatch(
            l ->
                l.startsWith("p.txt:1: event" + " sched_stat_runtime is not used")
                    && l.endsWith("(2 times)"));
    assertThat(t.warnings().lines()).anyMatch(l -> l.contains("does not say how many CPUs"));
  }

  @Test
  void aTruncatedLineIsSkippedWithAWarning() throws Exception {
    String text =
        FTRACE
            + "       sched-pipe-9845    [001] d..2.  2085.996016: sched_switch:"
            + " prev_comm=sched-pipe prev_pid=9845 prev_pri";
    Trace t = TraceReader.parse("t.txt", text, null);
    assertThat(t.events()).hasSize(4);
    assertThat(t.warnings().count("truncated")).isEqualTo(1);
    // and in the middle of a file, a line that stops before its last field
    String middle =
        FTRACE.replace("next_pid=9426 next_prio=120", "next_pid=9")
            + FTRACE.substring(FTRACE.indexOf(" VM Periodic")).replace("2085.", "2086.");
    Trace m = TraceReader.parse("m.txt", middle, null);
    assertThat(m.warnings().lines()).anyMatch(l -> l.startsWith("m.txt:7: truncated"));
  }

  @Test
  void lostEventMarkersBecomeEventsAndAWarning() throws Exception {
    String text = FTRACE + "CPU:1 [LOST 1234 EVENTS]\n";
    Trace t = TraceReader.parse("t.txt", text, null);
    assertThat(t.events())
        .anyMatch(e -> e instanceof TraceEvent.Lost l && l.count() == 1234 && l.at().cpu() == 1);
    assertThat(t.warnings().lines()).anyMatch(l -> l.contains("CPU 1 lost 1234 events"));
  }

  @Test
  void aMalformedLineIsAnErrorNamingTheFileAndLine() {
    String bad = FTRACE.replace("prev_pid=9845", "prev_pid=abc");
    assertThatThrownBy(() -> TraceReader.parse("t.txt", bad, null))
        .isInstanceOf(TraceInputException.class)
        .hasMessageStartingWith("t.txt:7: sched_switch: cannot read the fields")
        .hasMessageContaining("expected prev_comm=COMM prev_pid=N");
    String garbage = FTRACE.replace("# tracer: nop\n#\n", "# tracer: nop\nhello world\n");
    assertThatThrownBy(() -> TraceReader.parse("g.txt", garbage, null))
        .isInstanceOf(TraceInputException.class)
        .hasMessageStartingWith("g.txt:2: not a ftrace event line; expected COMM-PID [CPU]");
  }

  @Test
  void aCpuBeyondTheHeaderOrTimeGoingBackIsAnError() {
    String cpu = FTRACE.replace("[001] .....", "[007] .....");
    assertThatThrownBy(() -> TraceReader.parse("t.txt", cpu, null))
        .hasMessageStartingWith("t.txt:8: CPU 7 is not on the traced machine");
    String back = FTRACE.replace("2085.995100", "2085.990000");
    assertThatThrownBy(() -> TraceReader.parse("t.txt", back, null))
        .hasMessageStartingWith("t.txt:8: time goes back on CPU 1");
  }

  @Test
  void textThatIsNoTraceIsAnError() {
    assertThatThrownBy(() -> TraceReader.parse("x.txt", "just some words\n", null))
        .isInstanceOf(TraceInputException.class)
        .hasMessageStartingWith("x.txt:1: not a trace line");
    assertThatThrownBy(() -> TraceReader.parse("e.txt", "# tracer: nop\n", null))
        .hasMessageStartingWith("e.txt: no events");
  }
}
