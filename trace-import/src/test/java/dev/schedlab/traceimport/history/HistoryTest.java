package dev.schedlab.traceimport.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.traceimport.read.Trace;
import dev.schedlab.traceimport.read.TraceReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class HistoryTest {
  /** A tracefs-style trace of 2 CPUs built line by line; times in us. */
  private static final class Lines {
    final List<String> lines = new ArrayList<>(List.of("# tracer: nop", "#P:2"));

    Lines ev(String comm, int pid, int cpu, long us, String flags, String event, String fields) {
      lines.add(
          String.format(
              Locale.ROOT,
              "%16s-%-7d [%03d] %s %5d.%06d: %s: %s",
              comm,
              pid,
              cpu,
              flags,
              us / 1_000_000,
              us % 1_000_000,
              event,
              fields));
      return this;
    }

    Lines sw(int cpu, long us, String prev, int prevPid, String state, String next, int nextPid) {
      return ev(
          prev,
          prevPid,
          cpu,
          us,
          "d..2.",
          "sched_switch",
          "prev_comm="
              + prev
              + " prev_pid="
              + prevPid
              + " prev_prio=120 prev_state="
              + state
              + " ==> next_comm="
              + next
              + " next_pid="
              + nextPid
              + " next_prio=120");
    }

    Lines waking(
        int cpu, long us, String cur, int curPid, String flags, String comm, int pid, int target) {
      return ev(
          cur,
          curPid,
          cpu,
          us,
          flags,
          "sched_waking",
          "comm="
              + comm
              + " pid="
              + pid
              + " prio=120 target_cpu="
              + String.format(Locale.ROOT, "%03d", target));
    }

    /** An idle CPU 1's timer tick at 500 us: the trace starts there. */
    Lines start() {
      ev("<idle>", 0, 1, 500, "d.h..", "local_timer_entry", "vector=236");
      return ev("<idle>", 0, 1, 501, "d.h..", "local_timer_exit", "vector=236");
    }

    History history() throws Exception {
      Trace t = TraceReader.parse("h.txt", String.join("\n", lines) + "\n", null);
      return History.of(t.events(), t.nrCpus(), t.startNs(), t.endNs(), t.warnings());
    }
  }

  private static TracedTask task(History h, int pid, int generation) {
    return h.tasks().stream()
        .filter(t -> t.pid() == pid && t.generation() == generation)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aWakeupFromTaskContextIsTheWakersStepAndTheWakeesBlock() throws Exception {
    History h =
        new Lines()
            .start()
            .sw(0, 1000, "a", 10, "S", "<idle>", 0) // a runs from the start, blocks
            .sw(1, 1000, "<idle>", 0, "R", "b", 11) // b switched in
            .waking(1, 1300, "b", 11, "d..2.", "a", 10, 0) // b wakes a (task context)
            .sw(0, 1310, "<idle>", 0, "R", "a", 10)
            .sw(1, 1400, "b", 11, "S", "<idle>", 0)
            .sw(0, 1500, "a", 10, "R", "<idle>", 0)
            .history();
    TracedTask a = task(h, 10, 1);
    TracedTask b = task(h, 11, 1);
    assertThat(a.start()).isEqualTo(TracedTask.Start.RUNNING);
    assertThat(a.actions()).hasSize(3);
    Action.Block block = (Action.Block) a.actions().get(1);
    assertThat(block.end()).isEqualTo(Action.Block.End.BY_TASK);
    assertThat(a.measures().runtimeNs).isEqualTo(500_000 + 190_000); // 500..1000 + 1310..1500
    assertThat(a.measures().runs).isEqualTo(2); // on its CPU at the start, and once more
    assertThat(a.measures().wakeups).isEqualTo(1);
    assertThat(a.measures().wakeupsByTask).isEqualTo(1);
    assertThat(a.measures().wakeLatency.getMaxValue()).isBetween(9_990L, 10_010L);
    // b: a stretch of 300 us, the wake of a, 100 us more, then its block
    assertThat(b.start()).isEqualTo(TracedTask.Start.RUNNABLE);
    assertThat(b.actions().get(0)).isEqualTo(new Action.Run(300_000, 0, 1, 1, 0));
    assertThat(b.actions().get(1))
        .isEqualTo(new Action.Wake(a, true, false, true)); // b blocks next: WF_SYNC
    assertThat(b.actions().get(2)).isEqualTo(new Action.Run(100_000, 0, 0, 0, 0));
  }

  @Test
  void aWakeupInsideAnInterruptIsATimedSleepAndItsTimeIsNotTheTasks() throws Exception {
    History h =
        new Lines()
            .start()
            .sw(0, 1000, "a", 10, "S", "b", 11)
            .ev("b", 11, 0, 1200, "d.h..", "local_timer_entry", "vector=236")
            .waking(0, 1201, "b", 11, "d.h2.", "a", 10, 0) // in the timer interrupt
            .ev("b", 11, 0, 1210, "d.h..", "local_timer_exit", "vector=236")
            .sw(0, 1300, "b", 11, "R", "a", 10)
            .history();
    TracedTask a = task(h, 10, 1);
    TracedTask b = task(h, 11, 1);
    Action.Block block = (Action.Block) a.actions().get(1);
    assertThat(block.end()).isEqualTo(Action.Block.End.TIMED);
    assertThat(block.durationNs()).isEqualTo(201_000);
    assertThat(b.actions()).noneMatch(x -> x instanceof Action.Wake);
    assertThat(b.actions().get(0)).isEqualTo(new Action.Run(300_000, 10_000, 1, 0, 0));
    assertThat(h.cpus().get(0).interrupts).isEqualTo(1);
    assertThat(h.cpus().get(0).irqNs).isEqualTo(10_000);
  }

  @Test
  void theFlagsColumnAloneMarksAnInterruptWakeup() throws Exception {
    History h =
        new Lines()
            .start()
            .sw(0, 1000, "a", 10, "S", "b", 11)
            .waking(0, 1201, "b", 11, "d.s2.", "a", 10, 0) // softirq, no irq events traced
            .sw(0, 1300, "b", 11, "R", "a", 10)
            .history();
    Action.Block block = (Action.Block) task(h, 10, 1).actions().get(1);
    assertThat(block.end()).isEqualTo(Action.Block.End.TIMED);
  }

  @Test
  void aTaskAsleepBeforeTheTraceStartsBeginsWithItsBlock() throws Exception {
    History h =
        new Lines()
            .sw(0, 1000, "b", 11, "R", "c", 12)
            .waking(0, 1100, "c", 12, "d..2.", "a", 10, 1)
            .sw(1, 1150, "<idle>", 0, "R", "a", 10)
            .history();
    TracedTask a = task(h, 10, 1);
    assertThat(a.start()).isEqualTo(TracedTask.Start.BLOCKED);
    assertThat(((Action.Block) a.actions().get(0)).end()).isEqualTo(Action.Block.End.BY_TASK);
    assertThat(task(h, 12, 1).actions())
        .anyMatch(x -> x instanceof Action.Wake w && w.target() == a);
    assertThat(task(h, 11, 1).start()).isEqualTo(TracedTask.Start.RUNNING);
    assertThat(task(h, 12, 1).start()).isEqualTo(TracedTask.Start.RUNNABLE);
  }

  @Test
  void aReusedPidIsANewTask() throws Exception {
    History h =
        new Lines()
            .sw(0, 1000, "old", 10, "X", "p", 5)
            .ev(
                "p",
                5,
                0,
                1100,
                ".....",
                "sched_process_fork",
                "comm=p pid=5 child_comm=p" + " child_pid=10")
            .ev(
                "p",
                5,
                0,
                1101,
                "d..2.",
                "sched_wakeup_new",
                "comm=p pid=10 prio=120" + " target_cpu=001")
            .sw(1, 1200, "<idle>", 0, "R", "new", 10)
            .history();
    TracedTask first = task(h, 10, 1);
    TracedTask second = task(h, 10, 2);
    assertThat(first.exited()).isTrue();
    assertThat(first.actions()).last().isInstanceOf(Action.Exit.class);
    assertThat(second.start()).isEqualTo(TracedTask.Start.FORKED);
    assertThat(second.startNs()).isEqualTo(1_100_000L); // created at the fork
    assertThat(second.comm()).isEqualTo("new");
    assertThat(second.measures().runs).isEqualTo(1);
    assertThat(second.measures().wakeups).isZero(); // a new task's first wakeup is no wakeup
  }

  @Test
  void aWakeupOfATaskStillOnItsCpuIsAWakeupAndABlockThatTheWakerEnds() throws Exception {
    History h =
        new Lines()
            .sw(1, 1000, "<idle>", 0, "R", "a", 10)
            .sw(0, 1000, "<idle>", 0, "R", "b", 11)
            .waking(0, 1100, "b", 11, "d..2.", "a", 10, 1) // a set itself asleep, not yet gone
            .sw(1, 1200, "a", 10, "R", "<idle>", 0)
            .history();
    TracedTask a = task(h, 10, 1);
    assertThat(a.measures().wakeups).isEqualTo(1);
    assertThat(a.measures().wakeupsRunning).isEqualTo(1);
    assertThat(a.measures().wakeupsByTask).isEqualTo(1);
    assertThat(a.measures().runtimeNs).isEqualTo(200_000);
    // a: its 100 us before the wakeup, a block b ends, its 100 us after
    assertThat(a.actions()).hasSize(3);
    assertThat(a.actions().get(0)).isEqualTo(new Action.Run(100_000, 0, 1, 1, 0));
    Action.Block block = (Action.Block) a.actions().get(1);
    assertThat(block.end()).isEqualTo(Action.Block.End.BY_TASK);
    assertThat(a.actions().get(2)).isEqualTo(new Action.Run(100_000, 0, 0, 0, 0));
    assertThat(task(h, 11, 1).actions())
        .filteredOn(x -> x instanceof Action.Wake)
        .containsExactly(new Action.Wake(a, false, false, false));
  }

  @Test
  void aTaskPreemptedInItsSleepWindowIsWokenWithoutHavingSlept() throws Exception {
    History h =
        new Lines()
            .sw(0, 1000, "<idle>", 0, "R", "a", 10)
            .sw(0, 1100, "a", 10, "R", "b", 11) // preempted (the switch says R)
            .waking(0, 1150, "b", 11, "d..2.", "a", 10, 0)
            .sw(0, 1200, "b", 11, "S", "a", 10)
            .history();
    TracedTask a = task(h, 10, 1);
    assertThat(a.measures().wakeups).isEqualTo(1);
    assertThat(a.measures().wakeupsRunning).isEqualTo(1);
    assertThat(a.measures().involuntarySwitches).isEqualTo(1);
    assertThat(a.measures().wakeLatency.getTotalCount()).isZero(); // it never slept
    assertThat(a.actions()).hasAtLeastOneElementOfType(Action.Block.class);
  }

  @Test
  void aSecondWakingBeforeTheWakeeRanIsNoSecondWakeup() throws Exception {
    History h =
        new Lines()
            .sw(0, 1000, "<idle>", 0, "R", "b", 11)
            .sw(1, 1000, "<idle>", 0, "R", "a", 10)
            .sw(1, 1050, "a", 10, "S", "<idle>", 0)
            .waking(0, 1100, "b", 11, "d..2.", "a", 10, 1)
            .waking(0, 1110, "b", 11, "d..2.", "a", 10, 1) // lost events between them
            .sw(1, 1200, "<idle>", 0, "R", "a", 10)
            .history();
    assertThat(task(h, 10, 1).measures().wakeups).isEqualTo(1);
  }

  @Test
  void aForkIsTheParentsActionAndTheChildKnowsItsParent() throws Exception {
    History h =
        new Lines()
            .sw(0, 1000, "<idle>", 0, "R", "p", 10)
            .ev(
                "p",
                10,
                0,
                1100,
                "d..2.",
                "sched_process_fork",
                "comm=p pid=10 child_comm=c" + " child_pid=11")
            .sw(0, 1200, "p", 10, "S", "c", 11)
            .history();
    TracedTask p = task(h, 10, 1);
    TracedTask c = task(h, 11, 1);
    assertThat(c.start()).isEqualTo(TracedTask.Start.FORKED);
    assertThat(c.parent()).isSameAs(p);
    assertThat(c.startCpu()).isEqualTo(-1); // placed by the replay, as a new task
    // p: its 100 us before the fork, the fork, its 100 us after, its block
    assertThat(p.actions().get(0)).isEqualTo(new Action.Run(100_000, 0, 1, 1, 0));
    assertThat(p.actions().get(1)).isEqualTo(new Action.Fork(c));
    assertThat(p.actions().get(2)).isEqualTo(new Action.Run(100_000, 0, 0, 0, 0));
  }

  @Test
  void aTaskAliveAtTheStartStartsOnTheCpuTheTraceFirstShowsItOn() throws Exception {
    History h =
        new Lines()
            .sw(1, 1000, "<idle>", 0, "R", "a", 10) // runnable at the start: on CPU 1
            .waking(1, 1100, "a", 10, "d..2.", "b", 11, 0) // asleep at the start, last on CPU 0
            .history();
    assertThat(task(h, 10, 1).startCpu()).isEqualTo(1);
    assertThat(task(h, 11, 1).start()).isEqualTo(TracedTask.Start.BLOCKED);
    assertThat(task(h, 11, 1).startCpu()).isZero();
  }

  @Test
  void migrationsAndContextSwitchesAreCounted() throws Exception {
    History h =
        new Lines()
            .sw(0, 1000, "<idle>", 0, "R", "a", 10)
            .sw(0, 1100, "a", 10, "R", "b", 11)
            .sw(1, 1200, "<idle>", 0, "R", "a", 10)
            .sw(1, 1300, "a", 10, "S", "<idle>", 0)
            .history();
    TracedTask a = task(h, 10, 1);
    assertThat(a.measures().migrations).isEqualTo(1);
    assertThat(a.measures().involuntarySwitches).isEqualTo(1);
    assertThat(a.measures().voluntarySwitches).isEqualTo(1);
    assertThat(h.cpus().get(0).contextSwitches).isEqualTo(2);
    assertThat(h.cpus().get(1).busyNs).isEqualTo(100_000);
  }

  @Test
  void aLostSwitchEndsTheRunningTaskWhereTheLinesStartNamingAnother() throws Exception {
    History h =
        new Lines()
            .sw(0, 1000, "<idle>", 0, "R", "a", 10)
            .ev("b", 11, 0, 1400, "d.h..", "local_timer_entry", "vector=236") // a lost switch
            .ev("b", 11, 0, 1401, "d.h..", "local_timer_exit", "vector=236")
            .sw(0, 2000, "b", 11, "S", "<idle>", 0)
            .history();
    TracedTask a = task(h, 10, 1);
    TracedTask b = task(h, 11, 1);
    assertThat(a.measures().runtimeNs).isEqualTo(400_000);
    assertThat(b.measures().runtimeNs).isEqualTo(600_000);
    assertThat(b.measures().runs).isEqualTo(1);
    // the CPU was busy 1 ms, not 1.6 ms: no stretch is counted for two tasks
    assertThat(h.cpus().get(0).busyNs).isEqualTo(1_000_000);
  }

  @Test
  void aTaskSeenOnAnIdleCpuWithoutASwitchRunsFromTheIdleTasksLastEvent() throws Exception {
    // The project's guest traces no sched_switch out of the idle task on one of its vCPUs: a task
    // woken there by an interrupt shows up first in its own lines (here its switch-out).
    History h =
        new Lines()
            .sw(0, 1000, "<idle>", 0, "R", "a", 10)
            .sw(0, 1100, "a", 10, "D", "<idle>", 0)
            .ev("<idle>", 0, 0, 1500, "d.h..", "irq_handler_entry", "irq=36 name=virtio1-req.0")
            .ev("<idle>", 0, 0, 1503, "d.h..", "irq_handler_exit", "irq=36 ret=handled")
            .ev("<idle>", 0, 0, 1504, "..s..", "softirq_entry", "vec=4 [action=BLOCK]")
            .waking(0, 1506, "<idle>", 0, "..s..", "a", 10, 0)
            .ev("<idle>", 0, 0, 1510, "..s..", "softirq_exit", "vec=4 [action=BLOCK]")
            .sw(0, 1900, "a", 10, "D", "<idle>", 0)
            .history();
    TracedTask a = task(h, 10, 1);
    // 100 us, then from the softirq's exit to the second switch-out: 390 us, not 0
    assertThat(a.measures().runtimeNs).isEqualTo(490_000);
    assertThat(a.measures().runs).isEqualTo(2);
    assertThat(h.cpus().get(0).busyNs).isEqualTo(490_000);
  }

  @Test
  void aBlockKeepsWhetherItWasAnUninterruptibleWait() throws Exception {
    History h =
        new Lines()
            .sw(0, 1000, "<idle>", 0, "R", "a", 10)
            .waking(0, 1100, "a", 10, "d..2.", "w", 11, 0)
            .sw(0, 1108, "a", 10, "D", "w", 11)
            .sw(0, 1200, "w", 11, "S", "<idle>", 0)
            .history();
    List<Action> a = task(h, 10, 1).actions();
    // its run, the wake, 8 us more on the CPU, then the D wait
    assertThat(a.get(1)).isInstanceOf(Action.Wake.class);
    assertThat(a.get(3))
        .isInstanceOfSatisfying(Action.Block.class, b -> assertThat(b.uninterruptible()).isTrue());
    assertThat(task(h, 11, 1).actions())
        .filteredOn(x -> x instanceof Action.Block)
        .allSatisfy(b -> assertThat(((Action.Block) b).uninterruptible()).isFalse());
  }

  /** The {@code sync} flags of the wake steps of task {@code pid}, in order. */
  private static List<Boolean> syncs(History h, int pid) {
    return task(h, pid, 1).actions().stream()
        .filter(x -> x instanceof Action.Wake)
        .map(x -> ((Action.Wake) x).sync())
        .toList();
  }

  @Test
  void aWakeupIsSynchronousWhenTheWakersNextEventOnItsCpuIsItsOwnSleep() throws Exception {
    History h =
        new Lines()
            .sw(0, 1000, "<idle>", 0, "R", "w", 11)
            .sw(1, 1000, "<idle>", 0, "R", "x", 12)
            .sw(1, 1010, "x", 12, "S", "<idle>", 0) // x waits on CPU 1
            .waking(0, 1100, "w", 11, "d..2.", "x", 12, 1)
            .ev("w", 11, 0, 1101, "d..2.", "sched_wakeup", "comm=x pid=12 prio=120 target_cpu=001")
            .ev("w", 11, 0, 1102, "d.h..", "local_timer_entry", "vector=236") // not w's event
            .ev("w", 11, 0, 1103, "d.h..", "local_timer_exit", "vector=236")
            .sw(1, 1104, "<idle>", 0, "R", "x", 12) // another CPU's event
            .sw(0, 1105, "w", 11, "S", "<idle>", 0) // w's next event: it sleeps
            .sw(1, 1200, "x", 12, "S", "<idle>", 0)
            .history();
    assertThat(syncs(h, 11)).containsExactly(true);
  }

  @Test
  void aWakeupIsNotSynchronousWhenTheWakerIsPreemptedDoesSomethingElseOrWaitsInD()
      throws Exception {
    History h =
        new Lines()
            .sw(0, 1000, "<idle>", 0, "R", "w", 11)
            .sw(1, 1000, "<idle>", 0, "R", "x", 12)
            .sw(1, 1010, "x", 12, "S", "y", 13)
            .sw(1, 1020, "y", 13, "S", "<idle>", 0)
            .waking(0, 1100, "w", 11, "d..2.", "x", 12, 0)
            .sw(0, 1105, "w", 11, "R", "x", 12) // preempted by its wakee (pipe lockstep)
            .sw(0, 1110, "x", 12, "S", "w", 11)
            .waking(0, 1120, "w", 11, "d..2.", "x", 12, 0)
            .ev(
                "w",
                11,
                0,
                1121,
                "d..2.",
                "sched_process_fork",
                "comm=w pid=11 child_comm=w child_pid=14") // its own next event
            .sw(0, 1130, "w", 11, "S", "x", 12)
            .sw(0, 1140, "x", 12, "S", "w", 11)
            .waking(0, 1150, "w", 11, "d..2.", "x", 12, 0)
            .sw(0, 1160, "w", 11, "D", "x", 12) // an I/O wait: a kernel path woke a worker
            .sw(0, 1170, "x", 12, "S", "<idle>", 0)
            .history();
    assertThat(syncs(h, 11)).containsExactly(false, false, false);
  }

  @Test
  void wakeupsInARowBeforeTheWakersSleepAreAllSynchronous() throws Exception {
    History h =
        new Lines()
            .sw(0, 1000, "<idle>", 0, "R", "w", 11)
            .sw(1, 1000, "<idle>", 0, "R", "x", 12)
            .sw(1, 1010, "x", 12, "S", "y", 13)
            .sw(1, 1020, "y", 13, "S", "<idle>", 0)
            .waking(0, 1100, "w", 11, "d..2.", "x", 12, 1)
            .waking(0, 1101, "w", 11, "d..2.", "y", 13, 1) // wake_up_all()-like
            .sw(0, 1105, "w", 11, "S", "<idle>", 0)
            .history();
    assertThat(syncs(h, 11)).containsExactly(true, true);
  }
}
