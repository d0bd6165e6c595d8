package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.RunConfig;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.config.WorkloadConfig;
import dev.schedlab.engine.output.TraceSink;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The thread-level steps: wall-clock compute, yield, affinity, timers, condvars, barrier, send
 * buffers, fork.
 */
class ThreadOpsTest {
  private static final long MS = 1_000_000;

  private static Kernel run(long durationNs, int cpus, TaskSpec... tasks) {
    return run("poll-only", durationNs, cpus, TraceSink.NONE, tasks);
  }

  private static Kernel run(long durationNs, int cpus, TraceSink sink, TaskSpec... tasks) {
    return run("poll-only", durationNs, cpus, sink, tasks);
  }

  private static Kernel run(String idleStates, long durationNs, int cpus, TaskSpec... tasks) {
    return run(idleStates, durationNs, cpus, TraceSink.NONE, tasks);
  }

  private static Kernel run(
      String idleStates, long durationNs, int cpus, TraceSink sink, TaskSpec... tasks) {
    RunConfig base =
        TestRun.run()
            .name("t")
            .duration(durationNs)
            .cpus(1, cpus, 1)
            .idleStates(idleStates)
            .noJitter()
            .config();
    RunConfig c =
        new RunConfig(
            base.name(),
            base.seed(),
            base.durationNs(),
            base.machine(),
            base.kernel(),
            new WorkloadConfig(List.of(tasks), Map.of(), List.of()));
    Kernel k = KernelBuilder.build(c, TestKernels.builtins(), sink);
    k.run(durationNs);
    return k;
  }

  private static TaskSpec fifo(String name, int prio, String cpus, StepSpec... program) {
    return new TaskSpec(
        name, 1, "fifo", 0, prio, 0, 0, 0, cpus, false, false, "own", 0, List.of(program));
  }

  private static TaskSpec normal(String name, int count, StepSpec... program) {
    return new TaskSpec(
        name, count, "normal", 0, 0, 0, 0, 0, "", false, false, "own", 0, List.of(program));
  }

  private static long[] stamps(Kernel k, String comm, String key) {
    long[] v = k.metrics.rawSamples().get("clock/" + comm + "/" + key);
    return v == null ? new long[0] : v;
  }

  private static StepSpec user(long ns) {
    return new StepSpec.User(Dist.fixed(ns));
  }

  /** What a test reads of a {@code sched_switch}: when, where and who is switched in. */
  private interface SwitchIn {
    void accept(long t, int cpu, String nextComm);
  }

  /** A trace sink that passes each {@code sched_switch} to {@code l} and ignores the rest. */
  private static TraceSink onSwitchIn(SwitchIn l) {
    return new TraceSink() {
      @Override
      public boolean enabled() {
        return true;
      }

      @Override
      public void schedSwitch(
          long t,
          int cpu,
          String prevComm,
          int prevPid,
          int prevPrio,
          char prevState,
          String nextComm,
          int nextPid,
          int nextPrio) {
        l.accept(t, cpu, nextComm);
      }
    };
  }

  @Test
  void wallClockComputeEndsOnTimeWhenPreemptedButPlainComputeIsDelayed() {
    Kernel k =
        run(
            50 * MS,
            1,
            fifo("hog", 50, "0", new StepSpec.SleepAbs(1 * MS), user(3 * MS), new StepSpec.Exit()),
            fifo(
                "wall",
                10,
                "0",
                new StepSpec.UserWall(Dist.fixed(10 * MS)),
                new StepSpec.Clock("done"),
                new StepSpec.Exit()),
            fifo(
                "work",
                5,
                "0",
                new StepSpec.User(Dist.fixed(10 * MS)),
                new StepSpec.Clock("done"),
                new StepSpec.Exit()));
    long wallDone = stamps(k, "wall", "done")[0];
    // 10 ms of wall time from its start, although the hog took 3 ms of them.
    assertThat(wallDone).isBetween(10 * MS, 10 * MS + 100_000);
    // The plain compute ran only after the other two and needed its full 10 ms of CPU.
    assertThat(stamps(k, "work", "done")[0]).isGreaterThan(wallDone + 10 * MS);
  }

  @Test
  void aYieldingRtTaskLetsItsPeerOfTheSamePriorityRun() {
    StepSpec[] body = {user(MS), new StepSpec.Clock("t"), new StepSpec.Yield()};
    Kernel k = run(10 * MS, 1, fifo("a", 20, "0", body), fifo("b", 20, "0", body));
    long[] a = stamps(k, "a", "t");
    long[] b = stamps(k, "b", "t");
    assertThat(a.length).isGreaterThan(3);
    assertThat(Math.abs(a.length - b.length)).isLessThanOrEqualTo(1);
    // They alternate: every gap between two stamps of a holds one stamp of b.
    for (int i = 1; i < Math.min(a.length, b.length); i++) {
      long lo = a[i - 1];
      long hi = a[i];
      assertThat(Arrays.stream(b).filter(x -> x > lo && x < hi).count()).isEqualTo(1);
    }
    // Without the yield, FIFO keeps the first task running.
    Kernel noYield =
        run(
            10 * MS,
            1,
            fifo("a", 20, "0", user(MS), new StepSpec.Clock("t")),
            fifo("b", 20, "0", user(MS), new StepSpec.Clock("t")));
    assertThat(stamps(noYield, "b", "t").length + stamps(noYield, "a", "t").length)
        .isGreaterThan(5);
    assertThat(Math.min(stamps(noYield, "a", "t").length, stamps(noYield, "b", "t").length))
        .isZero();
  }

  @Test
  void anAffinityChangeMovesTheTaskOffABusyCpu() {
    StepSpec loop = new StepSpec.Loop(1000, List.of(user(100_000), new StepSpec.Clock("t")));
    Kernel k =
        run(
            20 * MS,
            2,
            fifo("hog", 90, "0", new StepSpec.SleepAbs(MS), user(30 * MS)),
            fifo("mover", 10, "0", user(500_000), new StepSpec.Affinity("1"), loop));
    long[] t = stamps(k, "mover", "t");
    // The hog owns CPU 0 from 1 ms on; on CPU 1 the mover keeps going (about 190 stamps).
    assertThat(t.length).isGreaterThan(150);
    Kernel stays =
        run(
            20 * MS,
            2,
            fifo("hog", 90, "0", new StepSpec.SleepAbs(MS), user(30 * MS)),
            fifo("mover", 10, "0", user(500_000), loop));
    assertThat(stamps(stays, "mover", "t").length).isLessThan(10);
  }

  @Test
  void theCpusStopperMovesATaskWhoseNewAffinityExcludesItsCpu() {
    // affine_move_task(): the stopper of CPU 0 runs migration_cpu_stop() and the mover goes on
    // on CPU 1
    List<String> switchIns = new java.util.ArrayList<>();
    TraceSink sink = onSwitchIn((t, cpu, next) -> switchIns.add(cpu + " " + next));
    Kernel k =
        run(
            5 * MS,
            2,
            sink,
            normal(
                "mover",
                1,
                new StepSpec.Affinity("0"),
                user(500_000),
                new StepSpec.Affinity("1"),
                new StepSpec.Clock("moved"),
                user(500_000),
                new StepSpec.Exit()));
    assertThat(switchIns).containsSubsequence("0 mover", "0 migration/0", "1 mover");
    assertThat(stamps(k, "mover", "moved")).hasSize(1);
    assertThat(task(k, "mover").cpu).isEqualTo(1);
  }

  @Test
  void aPeriodicTimerStampsSlackAndWakeLatencyAndRestartsAfterAMiss() {
    StepSpec timer = new StepSpec.Timer("t", MS, true, true, 0, "slack", "wu", null);
    Kernel k = run(10 * MS + 1, 1, fifo("p", 50, "0", user(200_000), timer));
    long[] slack = stamps(k, "p", "slack");
    long[] wu = stamps(k, "p", "wu");
    assertThat(slack).hasSize(10);
    assertThat(wu).hasSizeGreaterThanOrEqualTo(9);
    // The first period counts from 0: 200 us of work leave about 800 us to sleep.
    assertThat(slack[0]).isBetween(790_000L, 800_000L);
    assertThat(Arrays.stream(wu).boxed().toList())
        .allSatisfy(w -> assertThat(w).isBetween(0L, 50_000L));
    // 1.5 ms of work in a 1 ms period: every period is missed, none sleeps.
    Kernel late = run(10 * MS, 1, fifo("p", 50, "0", user(1_500_000), timer));
    assertThat(Arrays.stream(stamps(late, "p", "slack")).boxed().toList())
        .allSatisfy(s -> assertThat(s).isNegative());
    assertThat(stamps(late, "p", "wu")).isEmpty();
    // Relative mode restarted the period at each miss: each overshoot is 500 us (plus the tick
    // interrupts of that period), not growing.
    assertThat(Arrays.stream(stamps(late, "p", "slack")).boxed().toList())
        .allSatisfy(s -> assertThat(s).isBetween(-510_000L, -500_000L));
    Kernel absolute =
        run(
            10 * MS,
            1,
            fifo(
                "p",
                50,
                "0",
                user(1_500_000),
                new StepSpec.Timer("t", MS, false, true, 0, "slack", null, null)));
    long[] abs = stamps(absolute, "p", "slack");
    assertThat(abs[abs.length - 1]).isLessThan(abs[0]); // absolute: the lag accumulates
  }

  @Test
  void aTimerAndAnAbsoluteSleepCountFromTheirStamp() {
    // rt-app's t_zero: taken after 3 ms of work; the timer's first expiry is t_zero + 1 ms, the
    // absolute sleep ends at t_zero + 5 ms.
    StepSpec timer = new StepSpec.Timer("t", MS, true, true, 0, "slack", null, "zero");
    Kernel k =
        run(
            10 * MS,
            1,
            fifo(
                "p", 50, "0", user(3 * MS), new StepSpec.Stamp("zero"), timer, new StepSpec.Exit()),
            fifo(
                "q",
                40,
                "0",
                new StepSpec.SleepAbs(5 * MS, "zero"),
                new StepSpec.Clock("woke"),
                new StepSpec.Exit()));
    assertThat(stamps(k, "p", "slack")[0]).isBetween(990_000L, 1_000_000L);
    assertThat(stamps(k, "q", "woke")[0]).isBetween(8 * MS, 8 * MS + 50_000);
  }

  @Test
  void aSignalWithoutWaiterIsLostWhileAWakeIsKept() {
    StepSpec[] signaller = {new StepSpec.Signal("c", false), new StepSpec.Exit()};
    StepSpec[] waiter = {
      new StepSpec.SleepAbs(MS),
      new StepSpec.Block("c"),
      new StepSpec.Clock("woke"),
      new StepSpec.Exit()
    };
    Kernel lost = run(5 * MS, 2, normal("s", 1, signaller), normal("w", 1, waiter));
    assertThat(stamps(lost, "w", "woke")).isEmpty();
    Kernel kept =
        run(
            5 * MS,
            2,
            normal("s", 1, new StepSpec.Wake("c", false), new StepSpec.Exit()),
            normal("w", 1, waiter));
    assertThat(stamps(kept, "w", "woke")).hasSize(1);
  }

  @Test
  void aCondWaitReleasesTheMutexAndABroadcastWakesEveryWaiter() {
    // Each waiter takes the mutex, then waits on "c" releasing it: the next one can take it.
    StepSpec[] waiter = {
      new StepSpec.MutexLock("m"),
      new StepSpec.CondWait("c", "m"),
      new StepSpec.Clock("woke"),
      new StepSpec.MutexUnlock("m"),
      new StepSpec.Exit()
    };
    Kernel k =
        run(
            10 * MS,
            2,
            normal("w", 3, waiter),
            normal(
                "b",
                1,
                new StepSpec.SleepAbs(2 * MS),
                new StepSpec.Signal("c", true),
                new StepSpec.Exit()));
    for (int i = 0; i < 3; i++) {
      assertThat(stamps(k, "w/" + i, "woke")).hasSize(1);
      assertThat(stamps(k, "w/" + i, "woke")[0]).isGreaterThan(2 * MS);
    }
    assertThat(k.liveTasks).isZero();
  }

  @Test
  void anUncontendedMutexStaysInUserSpace() {
    // glibc's fast paths are a compare-and-swap and an exchange: no system call, no kernel time.
    StepSpec[] program = {
      new StepSpec.Clock("start"),
      new StepSpec.Loop(
          50, List.of(new StepSpec.MutexLock("m"), user(10_000), new StepSpec.MutexUnlock("m"))),
      new StepSpec.Clock("end"),
      new StepSpec.Exit()
    };
    Kernel k = run(5 * MS, 1, normal("t", 1, program));
    assertThat(stamps(k, "t", "end")[0] - stamps(k, "t", "start")[0]).isEqualTo(50 * 10_000);
  }

  @Test
  void aWokenWaiterFindsTheMutexRetakenAndSleepsAgain() {
    // No handoff: the unlocker locks again before its woken waiter runs, so it keeps the mutex
    // for all its rounds (a wait queue handing the mutex over would alternate the two).
    StepSpec[] rounds = {
      new StepSpec.Loop(
          5,
          List.of(
              new StepSpec.MutexLock("m"),
              new StepSpec.Clock("got"),
              user(MS),
              new StepSpec.MutexUnlock("m"))),
      new StepSpec.Exit()
    };
    List<StepSpec> late = new java.util.ArrayList<>(List.of(new StepSpec.SleepAbs(MS / 10)));
    late.addAll(Arrays.asList(rounds));
    Kernel k =
        run(20 * MS, 2, normal("a", 1, rounds), normal("b", 1, late.toArray(new StepSpec[0])));
    long[] a = stamps(k, "a", "got");
    long[] b = stamps(k, "b", "got");
    assertThat(a).hasSize(5);
    assertThat(b).hasSize(5);
    assertThat(b[0]).isGreaterThan(a[4]);
    assertThat(k.liveTasks).isZero();
  }

  @Test
  void aBarrierReleasesEveryUserWhenTheLastArrives() {
    Kernel k =
        run(
            20 * MS,
            4,
            normal(
                "a",
                1,
                user(MS),
                new StepSpec.Barrier("b", 3),
                new StepSpec.Clock("t"),
                new StepSpec.Exit()),
            normal(
                "c",
                1,
                user(5 * MS),
                new StepSpec.Barrier("b", 3),
                new StepSpec.Clock("t"),
                new StepSpec.Exit()),
            normal(
                "d",
                1,
                user(3 * MS),
                new StepSpec.Barrier("b", 3),
                new StepSpec.Clock("t"),
                new StepSpec.Exit()));
    for (String n : new String[] {"a", "c", "d"}) {
      assertThat(stamps(k, n, "t")[0]).isBetween(5 * MS, 5 * MS + 100_000);
    }
  }

  @Test
  void rtAppsBarrierReleasesEveryUserWhenTheLastArrives() {
    StepSpec barrier = new StepSpec.Barrier("b", 3, "bm", false);
    StepSpec[] tail = {barrier, new StepSpec.Clock("t"), new StepSpec.Exit()};
    Kernel k =
        run(
            20 * MS,
            4,
            normal("a", 1, user(MS), tail[0], tail[1], tail[2]),
            normal("c", 1, user(5 * MS), tail[0], tail[1], tail[2]),
            normal("d", 1, user(3 * MS), tail[0], tail[1], tail[2]));
    for (String n : new String[] {"a", "c", "d"}) {
      assertThat(stamps(k, n, "t")[0]).isBetween(5 * MS, 5 * MS + 100_000);
    }
    assertThat(k.liveTasks).isZero();
  }

  @Test
  void aFastThreadPassesRtAppsBarrierAgainBeforeItsWokenWaiterCountsItselfOut() {
    // rt-app counts a waiter out only once it has retaken the barrier's mutex: fast (FIFO, one
    // CPU) arrives, broadcasts, and arrives again before slow ran, so it finds slow still counted
    // as waiting and passes a second time; pthread_barrier_wait() would hold it the second time.
    StepSpec loop =
        new StepSpec.Loop(
            2, List.of(new StepSpec.Barrier("b", 2, "bm", false), new StepSpec.Clock("past")));
    Kernel k =
        run(
            20 * MS,
            1,
            normal("slow", 1, loop, new StepSpec.Exit()),
            fifo("fast", 50, "", new StepSpec.SleepAbs(MS), loop, new StepSpec.Exit()));
    long[] fast = stamps(k, "fast", "past");
    long[] slow = stamps(k, "slow", "past");
    assertThat(fast).hasSize(2);
    assertThat(slow).isNotEmpty();
    assertThat(fast[1]).isLessThan(slow[0]);
  }

  /** A writer of three 100-byte charges to send buffer "s" (room below 200 bytes). */
  private static TaskSpec writer(String name) {
    StepSpec charge = new StepSpec.Charge("s", 100, 200);
    StepSpec stamp = new StepSpec.Clock("c");
    return normal(name, 1, charge, stamp, charge, stamp, charge, stamp, new StepSpec.Exit());
  }

  @Test
  void aFullSendBufferHoldsItsWritersUntilAReadFreesItToTheWakeMark() {
    // the reader frees 100 bytes at 5 ms (200 -> 100, above the mark of 50: nobody is woken) and
    // 100 more at 6 ms (down to 0): both waiting writers are woken then and charge once each
    StepSpec free = new StepSpec.Uncharge("s", 100, 50, true);
    TaskSpec reader =
        normal(
            "reader",
            1,
            user(5 * MS),
            free,
            user(MS),
            free,
            user(MS),
            free,
            user(MS),
            free,
            new StepSpec.Exit());
    Kernel k = run(20 * MS, 4, writer("w1"), writer("w2"), reader);
    long[] w1 = stamps(k, "w1", "c");
    long[] w2 = stamps(k, "w2", "c");
    assertThat(w1).hasSize(3);
    assertThat(w2).hasSize(3);
    assertThat(w1[0]).isLessThan(100_000);
    assertThat(w2[0]).isLessThan(100_000);
    for (long[] w : new long[][] {w1, w2}) {
      assertThat(w[1]).isBetween(6 * MS, 6 * MS + 200_000);
      assertThat(w[2]).isBetween(8 * MS, 8 * MS + 200_000);
    }
    assertThat(k.liveTasks).isZero();
  }

  /** A task pinned to {@code cpu} running {@code program}. */
  private static TaskSpec pinned(String name, String cpu, StepSpec... program) {
    return new TaskSpec(
        name, 1, "normal", 0, 0, 0, 0, 0, cpu, false, false, "own", 0, List.of(program));
  }

  /**
   * How long the reader's two reads of the writer's two messages took, the reader on {@code cpu}.
   */
  private static long[] readTimes(String cpu) {
    StepSpec write = new StepSpec.Syscall(List.of(new StepSpec.Message("q", true, 7, 3)));
    StepSpec read = new StepSpec.Syscall(List.of(new StepSpec.Message("q", false, 7, 3)));
    StepSpec stamp = new StepSpec.Clock("c");
    Kernel k =
        run(
            10 * MS,
            2,
            pinned("writer", "0", write, write, new StepSpec.Exit()),
            pinned("reader", cpu, user(MS), stamp, read, stamp, read, stamp, new StepSpec.Exit()));
    long[] c = stamps(k, "reader", "c");
    assertThat(c).hasSize(3);
    return new long[] {c[1] - c[0], c[2] - c[1]};
  }

  @Test
  void aMessageReadOnAnotherCpuWaitsForItsLinesAndTheSocketsOnce() {
    long line = dev.schedlab.engine.params.Param.CACHELINE_SAME_LLC.defaultValue();
    long[] same = readTimes("0");
    long[] other = readTimes("1");
    // the first read takes the message's 7 lines and the socket's 3 from CPU 0, the second only
    // its own message's 7: the socket's lines are the reader's by then
    assertThat(other[0] - same[0]).isEqualTo(10 * line);
    assertThat(other[1] - same[1]).isEqualTo(7 * line);
  }

  @Test
  void aChargeWithRoomDoesNotSleep() {
    Kernel k =
        run(
            10 * MS,
            1,
            normal(
                "w",
                1,
                new StepSpec.Charge("s", 100, 1_000),
                new StepSpec.Charge("s", 100, 1_000),
                new StepSpec.Clock("c"),
                new StepSpec.Exit()));
    assertThat(stamps(k, "w", "c")).hasSize(1);
    assertThat(stamps(k, "w", "c")[0]).isLessThan(100_000);
    assertThat(k.metrics.counter("sched.wakeups").value).isZero();
  }

  @Test
  void forkCreatesNamedChildrenFromATemplate() {
    Kernel k =
        run(
            20 * MS,
            2,
            normal("child", 0, new StepSpec.Clock("born"), user(MS), new StepSpec.Exit()),
            normal(
                "parent",
                1,
                user(MS),
                new StepSpec.Fork("child", "child-", 1),
                user(MS),
                new StepSpec.Fork("child", "child-", 1),
                new StepSpec.Exit()));
    assertThat(stamps(k, "child-1-0000", "born")).hasSize(1);
    assertThat(stamps(k, "child-2-0001", "born")).hasSize(1);
    assertThat(stamps(k, "child-1-0000", "born")[0]).isBetween(MS, MS + 100_000);
    assertThat(k.liveTasks).isZero();
  }

  private static Task task(Kernel k, String comm) {
    return k.tasks.stream().filter(t -> t.comm.equals(comm)).findFirst().orElseThrow();
  }

  @Test
  void aForkStepOfANamedTaskCreatesItWhenTheParentGetsThere() {
    TaskSpec kid = normal("kid", 0, user(MS), new StepSpec.Exit()); // forked: a template
    TaskSpec dad =
        normal(
            "dad",
            1,
            user(3 * MS),
            new StepSpec.Fork("kid", "kid", -1),
            user(MS),
            new StepSpec.Exit());
    // not created at the run's start: only when the parent's fork step runs
    assertThat(run(2 * MS, 2, kid, dad).tasks).noneMatch(t -> t.comm.equals("kid"));
    Kernel k = run(20 * MS, 2, kid, dad);
    assertThat(task(k, "kid").sumExecNs()).isBetween(MS, MS + 100_000);
    assertThat(k.liveTasks).isZero();
  }

  @Test
  void aThreadSharesItsParentsMmAndAProcessHasItsOwn() {
    TaskSpec thread = normal("thread", 0, user(MS), new StepSpec.Exit());
    TaskSpec process = normal("process", 0, user(MS), new StepSpec.Exit());
    TaskSpec parent =
        normal(
            "parent",
            1,
            new StepSpec.Fork("thread", "thread", -1, true),
            new StepSpec.Fork("process", "process", -1),
            user(MS),
            new StepSpec.Exit());
    Kernel k = run(20 * MS, 2, thread, process, parent);
    assertThat(task(k, "thread").mmId).isEqualTo(task(k, "parent").mmId);
    assertThat(task(k, "thread").mm).isSameAs(task(k, "parent").mm);
    assertThat(task(k, "process").mmId).isNotEqualTo(task(k, "parent").mmId);
  }

  @Test
  void aForkedChildOnAnotherCpuIsWokenFromItsParentsCpu() {
    // wake_up_new_task() runs on the parent's CPU: the idle CPU 1 is rescheduled remotely, by a
    // RESCHEDULE IPI or, while its idle loop polls, the polling shortcut
    TaskSpec kid = normal("kid", 0, new StepSpec.Clock("born"), user(MS), new StepSpec.Exit());
    TaskSpec dad =
        normal(
            "dad",
            1,
            user(MS),
            new StepSpec.Fork("kid", "kid", -1),
            user(5 * MS),
            new StepSpec.Exit());
    Kernel k = run("hlt-only", 20 * MS, 2, kid, dad);
    assertThat(task(k, "dad").cpu).isZero();
    assertThat(task(k, "kid").cpu).isEqualTo(1);
    long remote =
        k.metrics.counter("ipi.sent.resched").value
            + k.metrics.counter("ipi.polling_shortcut.resched").value;
    assertThat(remote).isEqualTo(1);
    assertThat(stamps(k, "kid", "born")[0]).isBetween(MS, MS + 100_000);
  }

  @Test
  void aMarkAfterAStampCountsOnlyFromTheStampOn() {
    TaskSpec counter = normal("counter", 1, user(MS), new StepSpec.Mark("n", 2 * MS, "go"));
    TaskSpec starter =
        normal(
            "starter",
            1,
            new StepSpec.SleepAbs(5 * MS),
            new StepSpec.Stamp("go"),
            new StepSpec.Block("never"));
    Kernel k = run(20 * MS, 2, counter, starter);
    // one mark a millisecond, counted from the stamp at 5 ms plus 2 ms: those of 7..19 ms
    assertThat(k.metrics.counter("mark.n").value).isBetween(12L, 14L);
    Kernel never = run(20 * MS, 2, counter); // never stamped: nothing counts
    assertThat(never.metrics.counter("mark.n").value).isZero();
  }

  @Test
  void startCpuPlacesATaskWithoutForkBalancing() {
    StepSpec[] program = {user(MS), new StepSpec.Block("never")};
    TaskSpec a =
        new TaskSpec(
            "a", 1, "normal", 0, 0, 0, 0, 0, "", false, false, "own", 0, List.of(program), -1, 1);
    TaskSpec b =
        new TaskSpec(
            "b", 1, "normal", 0, 0, 0, 0, 0, "", false, false, "own", 0, List.of(program), -1, 1);
    Kernel k = run(1_000, 2, a, b);
    // placed as new tasks, the second would have gone to the idle CPU 0
    assertThat(task(k, "a").cpu).isEqualTo(1);
    assertThat(task(k, "b").cpu).isEqualTo(1);
  }

  @Test
  void aTaskStartedAsleepRunsOnlyWhenItsBlockOrSleepEnds() {
    List<StepSpec> blocked = List.of(new StepSpec.Block("q"), user(MS), new StepSpec.Block("x"));
    List<StepSpec> sleeping =
        List.of(new StepSpec.Sleep(Dist.fixed(3 * MS)), user(MS), new StepSpec.Block("x"));
    TaskSpec a =
        new TaskSpec(
            "a", 1, "normal", 0, 0, 0, 0, 0, "", false, false, "own", 0, blocked, -1, 1, true,
            false, Map.of());
    TaskSpec c =
        new TaskSpec(
            "c", 1, "normal", 0, 0, 0, 0, 0, "", false, false, "own", 0, sleeping, 0, 0, true,
            false, Map.of());
    TaskSpec b =
        normal("b", 1, user(2 * MS), new StepSpec.Wake("q", false), new StepSpec.Block("x"));
    Map<String, List<Long>> switchIns = new java.util.TreeMap<>();
    TraceSink sink =
        onSwitchIn(
            (t, cpu, next) ->
                switchIns.computeIfAbsent(next, n -> new java.util.ArrayList<>()).add(t));
    Kernel k = run(10 * MS, 2, sink, a, b, c);
    // each runs once, when b's wake step or its sleep's timer ends its first step
    assertThat(switchIns.get("a")).hasSize(1);
    assertThat(switchIns.get("a").get(0)).isGreaterThanOrEqualTo(2 * MS);
    assertThat(switchIns.get("c")).hasSize(1);
    assertThat(switchIns.get("c").get(0)).isGreaterThanOrEqualTo(3 * MS);
    assertThat(task(k, "a").sumExecNs()).isBetween(MS, MS + 100_000);
    assertThat(task(k, "c").sumExecNs()).isBetween(MS, MS + 100_000);
  }

  @Test
  void aSleepCanBePartOfASyscall() {
    TaskSpec a =
        normal(
            "a",
            1,
            new StepSpec.Syscall(
                List.of(new StepSpec.Wake("q", false), new StepSpec.Sleep(Dist.fixed(2 * MS)))),
            user(MS),
            new StepSpec.Block("x"));
    TaskSpec b = normal("b", 1, new StepSpec.Block("q"), user(MS), new StepSpec.Block("x"));
    Kernel k = run(10 * MS, 1, a, b);
    // a wakes b and sleeps in the same system call: b runs its 1 ms while a sleeps
    assertThat(task(k, "a").sumExecNs()).isBetween(MS, MS + 100_000);
    assertThat(task(k, "b").sumExecNs()).isBetween(MS, MS + 100_000);
    assertThat(k.liveTasks).isEqualTo(2);
  }

  @Test
  void aTaskStartedRunningIsItsCpusFirstPickWhateverIsQueuedThere() {
    // q is created first and queued on CPU 0; r was current there before the run began
    for (boolean running : new boolean[] {false, true}) {
      List<StepSpec> work = List.of(user(2 * MS), new StepSpec.Exit());
      TaskSpec q =
          new TaskSpec(
              "q", 1, "normal", 0, 0, 0, 0, 0, "", false, false, "own", 0, work, -1, 0, false,
              false, Map.of());
      TaskSpec r =
          new TaskSpec(
              "r", 1, "normal", 0, 0, 0, 0, 0, "", false, false, "own", 0, work, -1, 0, false,
              running, Map.of());
      List<String> order = new java.util.ArrayList<>();
      TraceSink sink =
          onSwitchIn(
              (t, cpu, next) -> {
                if (!next.startsWith("swapper") && order.isEmpty()) {
                  order.add(next + "@" + cpu + "@" + t);
                }
              });
      Kernel k = run(10 * MS, 1, sink, q, r);
      // the class alone picks q, queued first; start_running makes r the CPU's first task, at once
      assertThat(order).singleElement().asString().startsWith(running ? "r@0@" : "q@0@");
      assertThat(Long.parseLong(order.get(0).split("@")[2])).isLessThan(50_000);
      assertThat(task(k, "q").sumExecNs()).isGreaterThanOrEqualTo(2 * MS);
      assertThat(task(k, "r").sumExecNs()).isGreaterThanOrEqualTo(2 * MS);
    }
  }
}
