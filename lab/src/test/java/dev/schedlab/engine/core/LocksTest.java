package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

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

  private static Kernel run(String yaml, long ns, Recorder rec) {
    Kernel k =
        KernelBuilder.build(TestKernels.scenario(yaml).config(), TestKernels.builtins(), rec);
    k.run(ns);
    return k;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> stat(Kernel k, String lock) {
    return (Map<String, Object>)
        ((Map<String, Object>) k.metricsSnapshot().get("lock_stat")).get(lock);
  }

  private static final String FOUR_CPUS =
      "machine: {sockets: 1, cores_per_socket: 4, "
          + "threads_per_core: 1, idle_states: poll-only}\n";

  @Test
  void spinlockWaitersGetTheLockInArrivalOrderOneHandoffApart() {
    // a takes the lock for 100 us; b, c, d arrive at 10, 20, 30 us on their own CPUs
    String yaml =
        "duration: 1ms\n"
            + FOUR_CPUS
            + "workload:\n  locks: {L: spinlock}\n  tasks:\n"
            + task("a", 0, 0, "100us")
            + task("d", 3, 30, "10us")
            + task("b", 1, 10, "10us")
            + task("c", 2, 20, "10us");
    Recorder rec = new Recorder();
    Kernel k = run(yaml, 1_000_000, rec);
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

  private static String task(String name, int cpu, int startUs, String hold) {
    return "    - {name: "
        + name
        + ", cpus: \""
        + cpu
        + "\", start: "
        + startUs
        + "us, program: "
        + "[{kernel: [{lock: L}, {duration: "
        + hold
        + ", preemptible: true}, {unlock: L}]}, exit]}\n";
  }

  /** A fair task on CPU 1 spins on L, held 300 us by CPU 0; an RT task on CPU 1 wakes meanwhile. */
  private static Histogram rtOverSpinner(String preempt) {
    String yaml =
        "duration: 3ms\n"
            + FOUR_CPUS
            + "kernel: {preempt: "
            + preempt
            + "}\n"
            + "workload:\n  locks: {L: raw_spinlock}\n  tasks:\n"
            + "    - {name: holder, cpus: \"0\", program: [{kernel: [{lock: L}, {duration: 300us}, "
            + "{unlock: L}]}, {user: 10us}]}\n"
            + "    - {name: spinner, cpus: \"1\", start: 5us, program: [{kernel: [{lock: L}, "
            + "{duration: 1us}, {unlock: L}]}, {user: 10us}]}\n"
            + "    - {name: rt, cpus: \"1\", policy: fifo, rt_priority: 50, start: 20us, program: "
            + "[{sleep_until: {period: 250us, sample: rt}}]}\n";
    Kernel k = run(yaml, 3_000_000, new Recorder());
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

  /** One CPU: a fair task holds a spinlock for 100 us, then 100 us of preemptible kernel code. */
  private static Histogram deadlineOverHolder(String preempt) {
    String yaml =
        "duration: 50ms\n"
            + "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1, idle_states: poll-only}\n"
            + "kernel: {preempt: "
            + preempt
            + "}\n"
            + "workload:\n  locks: {zone: {kind: spinlock, per: node}}\n  tasks:\n"
            + "    - name: fair\n      program:\n        - kernel: [{lock: zone, irqs_off: false}, "
            + "{duration: 100us}, {unlock: zone}, {duration: 100us}]\n        - user: 3us\n"
            + "    - name: dl\n      policy: deadline\n      dl_runtime: 20us\n      dl_deadline: 1ms\n"
            + "      start: 37us\n      program:\n        - sleep_until: {period: 1ms, sample: dl}\n";
    Kernel k = run(yaml, 50_000_000, new Recorder());
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
  private static Kernel mutex(String ownerBody) {
    String yaml =
        "duration: 2ms\n"
            + FOUR_CPUS
            + "workload:\n  locks: {M: mutex}\n  tasks:\n"
            + "    - {name: owner, cpus: \"0\", program: [{lock: M}, "
            + ownerBody
            + ", {unlock: M}, exit]}\n"
            + "    - {name: waiter, cpus: \"1\", start: 10us, program: [{lock: M}, {user: 1us}, "
            + "{unlock: M}, exit]}\n";
    return run(yaml, 2_000_000, new Recorder());
  }

  @SuppressWarnings("unchecked")
  private static long busyNs(Kernel k, int cpu) {
    Map<String, Object> perCpu = (Map<String, Object>) k.metricsSnapshot().get("per_cpu");
    return (Long) ((Map<String, Object>) perCpu.get(String.format("cpu%03d", cpu))).get("busy_ns");
  }

  @Test
  void aMutexWaiterSpinsWhileTheOwnerRunsAndSleepsWhileItDoesNot() {
    Kernel running = mutex("{user: 500us}");
    Kernel sleeping = mutex("{sleep: 500us}");
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
    Kernel k = mutex("{user: 100us}, {sleep: 400us}");
    long busy = busyNs(k, 1);
    assertThat(busy).isBetween(80_000L, 150_000L); // spun ~90 us, then slept
  }

  @Test
  void aWaitingWriterHoldsBackNewReaders() {
    String yaml =
        "duration: 2ms\n"
            + FOUR_CPUS
            + "workload:\n  locks: {sem: rwsem}\n  tasks:\n"
            + "    - {name: r1, cpus: \"0\", program: [{lock: {name: sem, mode: read}}, {user: 100us}, "
            + "{unlock: sem}, exit]}\n"
            + "    - {name: w, cpus: \"1\", start: 10us, program: [{lock: sem}, {user: 50us}, "
            + "{unlock: sem}, exit]}\n"
            + "    - {name: r2, cpus: \"2\", start: 20us, program: [{lock: {name: sem, mode: read}}, "
            + "{user: 10us}, {unlock: sem}, exit]}\n";
    Recorder rec = new Recorder();
    run(yaml, 2_000_000, rec);
    // r2 finds only a reader holding the lock, yet waits: the writer queued first goes first
    assertThat(rec.only("begin")).containsExactly("begin w WRITE", "begin r2 READ");
    assertThat(rec.only("end")).containsExactly("end w", "end r2");
    long r2End = rec.times.get(rec.events.indexOf("end r2"));
    assertThat(r2End).isGreaterThan(150_000); // after r1's 100 us and the writer's 50 us
  }

  @Test
  void priorityInheritanceUnderRtLiftsTheHolderAboveAMediumTask() {
    // CPU 0 only. low (fair) holds the spinlock_t S for 1 ms of kernel work; mid (FIFO 10) wakes
    // at 100 us and computes 5 ms; high (FIFO 50) wakes at 200 us and wants S.
    String yaml =
        "duration: 10ms\n"
            + "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1, idle_states: poll-only}\n"
            + "kernel: {preempt: full, rt: true}\n"
            + "workload:\n  locks: {S: spinlock}\n  tasks:\n"
            + "    - {name: low, program: [{kernel: [{lock: S}, {duration: 1ms}, {unlock: S}]}, exit]}\n"
            + "    - {name: mid, policy: fifo, rt_priority: 10, program: [{sleep: 100us}, {user: 5ms}, "
            + "exit]}\n"
            + "    - {name: high, policy: fifo, rt_priority: 50, program: [{sleep: 200us}, "
            + "{kernel: [{lock: S}, {duration: 10us}, {unlock: S}]}, exit]}\n";
    Recorder rec = new Recorder();
    Kernel k = run(yaml, 10_000_000, rec);
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
    String yaml =
        "duration: 10ms\n"
            + "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1, idle_states: poll-only}\n"
            + "kernel: {preempt: full}\n"
            + "workload:\n  locks: {S: spinlock}\n  tasks:\n"
            + "    - {name: low, program: [{kernel: [{lock: S}, {duration: 1ms}, {unlock: S}]}, exit]}\n"
            + "    - {name: mid, policy: fifo, rt_priority: 10, program: [{sleep: 100us}, {user: 5ms}, "
            + "exit]}\n";
    Recorder rec = new Recorder();
    run(yaml, 10_000_000, rec);
    long firstSwitchToMid = rec.times.get(rec.events.indexOf("switch low mid"));
    assertThat(firstSwitchToMid).isGreaterThan(1_000_000); // at the unlock, not at 100 us
  }
}
