package dev.schedlab.traceimport.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.traceimport.TraceInputException;
import dev.schedlab.traceimport.Warnings;
import dev.schedlab.traceimport.history.History;
import dev.schedlab.traceimport.history.TracedTask;
import dev.schedlab.traceimport.read.Trace;
import dev.schedlab.traceimport.read.TraceReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AutogroupsTest {
  @TempDir Path dir;

  private static final String TRACE =
      String.join(
          "\n",
          "# tracer: nop",
          "#P:1",
          "   p-10 [000] d..2.  1.000100: sched_process_fork: comm=p pid=10 child_comm=c"
              + " child_pid=11",
          "   p-10 [000] d..2.  1.000200: sched_switch: prev_comm=p prev_pid=10 prev_prio=120"
              + " prev_state=S ==> next_comm=c next_pid=11 next_prio=120",
          "   c-11 [000] d..2.  1.000300: sched_switch: prev_comm=c prev_pid=11 prev_prio=120"
              + " prev_state=S ==> next_comm=k next_pid=2 next_prio=120",
          "");

  @Test
  void aTaskAliveAtTheStartIsInItsListedGroupAForkedOneInItsParentsAnUnlistedOneInNone()
      throws Exception {
    Path f = dir.resolve("groups.txt");
    Files.writeString(f, "# tid autogroup\n10 7\n\n11 9   # a new task of a reused tid\n");
    Trace t = TraceReader.parse("t.txt", TRACE, null);
    History h = History.of(t.events(), t.nrCpus(), t.startNs(), t.endNs(), new Warnings("t"));
    Autogroups g = Autogroups.read(f);
    TracedTask p = find(h, 10);
    assertThat(g.of(p)).isEqualTo(7);
    assertThat(g.of(find(h, 11))).isEqualTo(7); // forked by p: p's group, not the file's 9
    assertThat(g.of(find(h, 2))).isNull(); // the root group
  }

  @Test
  void aLineThatIsNotTwoNumbersIsAnErrorNamingIt() throws Exception {
    Path f = dir.resolve("bad.txt");
    Files.writeString(f, "10 7\n11 /autogroup-9\n");
    assertThatThrownBy(() -> Autogroups.read(f))
        .isInstanceOf(TraceInputException.class)
        .hasMessageStartingWith(f + ":2: expected 'TID AUTOGROUP'")
        .hasMessageContaining("got '11 /autogroup-9'");
  }

  private static TracedTask find(History h, int pid) {
    return h.tasks().stream().filter(t -> t.pid() == pid).findFirst().orElseThrow();
  }
}
