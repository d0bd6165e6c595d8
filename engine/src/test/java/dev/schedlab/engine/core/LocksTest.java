package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.exit;
import static dev.schedlab.engine.core.Steps.kernel;
import static dev.schedlab.engine.core.Steps.lock;
import static dev.schedlab.engine.core.Steps.lockStep;
import static dev.schedlab.engine.core.Steps.readLockStep;
import static dev.schedlab.engine.core.Steps.segment;
import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.sleepUntil;
import static dev.schedlab.engine.core.Steps.unlock;
import static dev.schedlab.engine.core.Steps.unlockStep;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.output.TraceSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The lock mechanisms of {@link Locks}: qspinlock FIFO handoff through the lock's cache line,
 * non-preemptible spinning, the unlock's preempt_enable() as a preemption point, mutex optimistic
 * spinning, rwsem writer preference and rtmutex priority inheritance under PREEMPT_RT.
 */
class LocksTest {
  /** Records the lock tracepoints and switches: (time, cpu, comm, event). */
  private static final class Recorder implements TraceSink {
    final List<String> events = new ArrayList<>();
    final List<Long> times = new ArrayList<>();

    @Override
    public boolean enabled() {
      return true;
    }

    @Override
    public void lockContentionBegin(
        long t, int cpu, String comm, int pid, long addr, String flags) {
      events.add("begin " + comm + " " + flags);
      times.add(t);
    }

    @Override
    public void lockContentionEnd(long t, int cpu, String comm, int pid, long addr) {
      events.add("end " + comm);
      times.add(t);
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
      events.add("switch " + prevComm + " " + nextComm);
      times.add(t);
    }

    List<String> only(String prefix) {
      return events.stream().filter(e -> e.startsWith(prefix)).toList();
    }
  }

  private static Kernel run(TestRun r, long ns, Recorder rec) {
    Kernel k = r.kernel(rec);
    k.run(ns);
    return k;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> stat(Kernel k, String lock) {
    return (Map<String, Object>)
        ((Map<String, Object>) k.metricsSnapshot().get("lock_stat")).get(lock);
  }

  private static TestRun fourCpus(long durationNs) {
    return TestRun.run().duration(durationNs).cpus(1, 4, 1).idleStates("poll-only");
  }

  private static TestRun oneCpu(long durationNs) {
    return TestRun.run().duration(durationNs).cpus(1, 1, 1).idleStates("poll-only");
  }

  @Test
  void spinlockWaitersGetTheLockInArrivalOrderOneHandoffApart() {
    // a takes the lock for 100 us; b, c, d arrive at 10, 20, 30 us on their own CPUs
    TestRun r =
        fourCpus(MS)
            .lock("L", LockSpec.Kind.SPINLOCK)
            .tasks(
                holder("a", 0, 0, 100 * US),
                holder("d", 3, 30, 10 * US),
                holder("b", 1, 10, 10 * US),
                holder("c", 2, 20, 10 * US));
    Recorder rec = new Recorder();
    Kernel k = run(r, 1_000_000, rec);
    assertThat(rec.only("end")).containsExactly("end b", "end c", "end d");
    assertThat(rec.only("begin")).containsExactly("begin b SPIN", "begin c SPIN", "begin d SPIN");
    Map<String, Object> s = stat(k, "L");
    assertThat(s.get("acquisitions")).isEqualTo(4L);
    assertThat(s.get("contentions")).isEqualTo(3L);
    // each handoff: the waiter reads the released line and writes it (two same-LLC transfers of
    // 60 ns +-20 %), after the holder's 10 us
    long bEnd = rec.times.get(rec.events.indexOf("end b"));
    long cEnd = rec.times.get(rec.events.indexOf("end c"));
    assertThat(cEnd - bEnd).isBetween(10_000L + 96, 10_000L + 144);
    assertThat(s.get("con-bounces")).isEqualTo(3L);
  }

  @Test
  void protectedDataLinesLengthenEachHandoffBetweenCpusButNotAReacquireOnTheSameCpu() {
    // as above, but each critical section writes two lines of the protected data: the next holder
    // on another CPU fetches both (two more same-LLC transfers of 60 ns +-20 %) with L held
    TestRun r =
        fourCpus(MS)
            .lock("L", LockSpec.Kind.SPINLOCK)
            .tasks(
                dataHolder("a", 0, 0, 100 * US),
                dataHolder("b", 1, 10, 10 * US),
                dataHolder("c", 2, 20, 10 * US),
                task("again")
                    .cpus("2")
                    .start(500 * US)
                    .program(
                        kernel(
                            StepSpec.Segment.lock("L", false, false, 2),
                            segment(10 * US),
                            unlock("L")),
                        exit()));
    Recorder rec = new Recorder();
    Kernel k = run(r, 1_000_000, rec);
    assertThat(rec.only("end")).containsExactly("end b", "end c");
    long bEnd = rec.times.get(rec.events.indexOf("end b"));
    long cEnd = rec.times.get(rec.events.indexOf("end c"));
    // c's wait ends after b's 10 us hold, b's two data fetches, and c's two lock-word transfers;
    // the data fetches count as b's hold, not as c's wait
    assertThat(cEnd - bEnd).isBetween(10_000L + 4 * 48, 10_000L + 4 * 72);
    Map<String, Object> s = stat(k, "L");
    assertThat(s.get("acquisitions")).isEqualTo(4L);
    // holds: a 100 us (the lines' first writer), b and c 10 us plus two fetches each, "again" on
    // CPU 2 after c there 10 us with nothing to fetch
    assertThat((Long) s.get("holdtime-total")).isBetween(130_000L + 4 * 48, 130_000L + 4 * 72);
    assertThat(s.get("holdtime-min")).isEqualTo(10_000L);
  }

  private static TestRun.Task dataHolder(String name, int cpu, int startUs, long holdNs) {
    return task(name)
        .cpus(String.valueOf(cpu))
        .start(startUs * US)
        .program(
            kernel(StepSpec.Segment.lock("L", false, false, 2), segment(holdNs), unlock("L")),
            exit());
  }

  /** A task on {@code cpu} that takes L at {@code startUs} and holds it {@code holdNs}. */
  private static TestRun.Task holder(String name, int cpu, int startUs, long holdNs) {
    return task(name)
        .cpus(String.valueOf(cpu))
        .start(startUs * US)
        .program(kernel(lock("L"), segment(holdNs), unlock("L")), exit());
  }

  /** A fair task on CPU 1 spins on L, held 300 us by CPU 0; an RT task on CPU 1 wakes meanwhile. */
  private static Histogram rtOverSpinner(String preempt) {
    TestRun r =
        fourCpus(3 * MS)
            .preempt(preempt)
            .lock("L", LockSpec.Kind.RAW_SPINLOCK)
            .tasks(
                task("holder")
                    .cpus("0")
                    .program(kernel(lock("L"), segment(300 * US), unlock("L")), user(10 * US)),
                task("spinner")
                    .cpus("1")
                    .start(5 * US)
                    .program(kernel(lock("L"), segment(US), unlock("L")), user(10 * US)),
                task("rt").cpus("1").fifo(50).start(20 * US).program(sleepUntil(250 * US, "rt")));
    Kernel k = run(r, 3_000_000, new Recorder());
    return k.metrics.histogram("rt");
  }

  @Test
  void aSpinningWaiterIsNeverPreempted() {
    // The waiter spins while the holder computes 300 us; the RT task waits for the spin and the
    // waiter's short critical section, even under full where every preemptible point acts.
    Histogram full = rtOverSpinner("full");
    assertThat(full.getTotalCount()).isGreaterThan(8);
    assertThat(full.getMaxValue()).isGreaterThan(100_000);
  }

  /**
   * One CPU: a fair task holds a spinlock for 100 us, then 100 us of preemptible kernel code. The
   * deadline task's budget covers its wait: the switch keeps the clock its wakeup read, so the wait
   * is charged to it (RqClockSkipTest), and a 20 us budget would throttle it for periods after.
   */
  private static Histogram deadlineOverHolder(String preempt) {
    TestRun r =
        oneCpu(50 * MS)
            .preempt(preempt)
            .lock("zone", LockSpec.Kind.SPINLOCK, LockSpec.Scope.NODE)
            .tasks(
                task("fair")
                    .program(
                        kernel(lock("zone"), segment(100 * US), unlock("zone"), segment(100 * US)),
                        user(3 * US)),
                task("dl").deadline(300 * US, MS).start(37 * US).program(sleepUntil(MS, "dl")));
    Kernel k = run(r, 50_000_000, new Recorder());
    return k.metrics.histogram("dl");
  }

  @Test
  void aDeadlineWakeupOverASpinlockHolderPreemptsAtTheUnlockUnderFull() {
    Histogram full = deadlineOverHolder("full");
    assertThat(full.getTotalCount()).isGreaterThan(40);
    // the holder's 100 us span delays it, the preemptible 100 us after the unlock does not
    assertThat(full.getMaxValue()).isBetween(20_000L, 106_000L);
  }

  @Test
  void aDeadlineWakeupOverASpinlockHolderWaitsForReturnToUserUnderNone() {
    Histogram none = deadlineOverHolder("none");
    assertThat(none.getTotalCount()).isGreaterThan(40);
    // neither the unlock nor the IRQ exit acts: the wakeup waits for the syscall's end
    assertThat(none.getMaxValue()).isGreaterThan(150_000);
    assertThat(none.getMaxValue()).isLessThan(206_000);
  }

  /** CPU 0: the owner holds the mutex over {@code ownerBody}; CPU 1: a waiter arrives at 10 us. */
  private static Kernel mutex(StepSpec... ownerBody) {
    List<StepSpec> owner = new ArrayList<>();
    owner.add(lockStep("M"));
    owner.addAll(List.of(ownerBody));
    owner.add(unlockStep("M"));
    owner.add(exit());
    TestRun r =
        fourCpus(2 * MS)
            .lock("M", LockSpec.Kind.MUTEX)
            .tasks(
                task("owner").cpus("0").program(owner.toArray(StepSpec[]::new)),
                task("waiter")
                    .cpus("1")
                    .start(10 * US)
                    .program(lockStep("M"), user(US), unlockStep("M"), exit()));
    return run(r, 2_000_000, new Recorder());
  }

  @SuppressWarnings("unchecked")
  private static long busyNs(Kernel k, int cpu) {
    Map<String, Object> perCpu = (Map<String, Object>) k.metricsSnapshot().get("per_cpu");
    return (Long) ((Map<String, Object>) perCpu.get(String.format("cpu%03d", cpu))).get("busy_ns");
  }

  @Test
  void aMutexWaiterSpinsWhileTheOwnerRunsAndSleepsWhileItDoesNot() {
    Kernel running = mutex(user(500 * US));
    Kernel sleeping = mutex(sleep(500 * US));
    assertThat(stat(running, "M").get("contentions")).isEqualTo(1L);
    assertThat(stat(sleeping, "M").get("contentions")).isEqualTo(1L);
    // spinning: CPU 1 stays busy for the ~490 us wait; sleeping: CPU 1 idles through it
    long busySpin = busyNs(running, 1);
    long busySleep = busyNs(sleeping, 1);
    assertThat(busySpin).isGreaterThan(450_000);
    assertThat(busySleep).isLessThan(100_000);
    assertThat((Long) stat(running, "M").get("waittime-max")).isGreaterThan(450_000);
    assertThat((Long) stat(sleeping, "M").get("waittime-max")).isGreaterThan(450_000);
  }

  @Test
  void aMutexSpinnerStopsWhenTheOwnerGoesToSleep() {
    // the owner computes 100 us, then sleeps 400 us still holding the mutex (the run ends when
    // both have exited, ~500 us)
    Kernel k = mutex(user(100 * US), sleep(400 * US));
    long busy = busyNs(k, 1);
    assertThat(busy).isBetween(80_000L, 150_000L); // spun ~90 us, then slept
  }

  @Test
  void aWaitingWriterHoldsBackNewReaders() {
    TestRun r =
        fourCpus(2 * MS)
            .lock("sem", LockSpec.Kind.RWSEM)
            .tasks(
                task("r1")
                    .cpus("0")
                    .program(readLockStep("sem"), user(100 * US), unlockStep("sem"), exit()),
                task("w")
                    .cpus("1")
                    .start(10 * US)
                    .program(lockStep("sem"), user(50 * US), unlockStep("sem"), exit()),
                task("r2")
                    .cpus("2")
                    .start(20 * US)
                    .program(readLockStep("sem"), user(10 * US), unlockStep("sem"), exit()));
    Recorder rec = new Recorder();
    run(r, 2_000_000, rec);
    // r2 finds only a reader holding the lock, yet waits: the writer queued first goes first
    assertThat(rec.only("begin")).containsExactly("begin w WRITE", "begin r2 READ");
    assertThat(rec.only("end")).containsExactly("end w", "end r2");
    long r2End = rec.times.get(rec.events.indexOf("end r2"));
    assertThat(r2End).isGreaterThan(150_000); // after r1's 100 us and the writer's 50 us
  }

  /** A fair task holding S for 1 ms of kernel work. */
  private static TestRun.Task lowHoldsS1ms() {
    return task("low").program(kernel(lock("S"), segment(MS), unlock("S")), exit());
  }

  /** A FIFO 10 task that wakes at 100 us and computes 5 ms. */
  private static TestRun.Task midFrom100us() {
    return task("mid").fifo(10).program(sleep(100 * US), user(5 * MS), exit());
  }

  @Test
  void priorityInheritanceUnderRtLiftsTheHolderAboveAMediumTask() {
    // CPU 0 only. low (fair) holds the spinlock_t S for 1 ms of kernel work; mid (FIFO 10) wakes
    // at 100 us and computes 5 ms; high (FIFO 50) wakes at 200 us and wants S.
    TestRun r =
        oneCpu(10 * MS)
            .preempt("full")
            .preemptRt()
            .lock("S", LockSpec.Kind.SPINLOCK)
            .tasks(
                lowHoldsS1ms(),
                midFrom100us(),
                task("high")
                    .fifo(50)
                    .program(
                        sleep(200 * US), kernel(lock("S"), segment(10 * US), unlock("S")), exit()));
    Recorder rec = new Recorder();
    Kernel k = run(r, 10_000_000, rec);
    // Under RT the holder is preemptible (mid runs it off the CPU at 100 us); boosted to high's
    // priority it preempts mid, finishes its 1 ms and hands S over: high waits ~0.9 ms, not 5 ms.
    assertThat(rec.only("begin")).containsExactly("begin high RT");
    long wait = (Long) stat(k, "S").get("waittime-max");
    assertThat(wait).isBetween(850_000L, 1_100_000L);
    assertThat(rec.events).contains("switch mid low");
  }

  @Test
  void withoutPreemptRtTheSameSpinlockKeepsTheMediumTaskOutInstead() {
    // The contrast: spinlock_t spins; low cannot be preempted inside its section at all.
    TestRun r =
        oneCpu(10 * MS)
            .preempt("full")
            .lock("S", LockSpec.Kind.SPINLOCK)
            .tasks(lowHoldsS1ms(), midFrom100us());
    Recorder rec = new Recorder();
    run(r, 10_000_000, rec);
    long firstSwitchToMid = rec.times.get(rec.events.indexOf("switch low mid"));
    assertThat(firstSwitchToMid).isGreaterThan(1_000_000); // at the unlock, not at 100 us
  }
}
