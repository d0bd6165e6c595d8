package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.SchedulingClass;
import org.junit.jupiter.api.Test;

/**
 * The packed copies of per-CPU state the hot paths read instead of the CPU: the idle map ({@code
 * Kernel.idleCpus}, for wakeup scans), the count of queued tasks above fair ({@code
 * Cpu.nrAboveFair}, for the pick's fast path) and the hrtimer base's order of equal expiries. Each
 * must equal what it copies at every point of a run.
 */
class PackedRunqueueStateTest {
  /** Runs {@code yaml} in 20 us steps, checking both copies on every CPU after each step. */
  private static int runChecking(String yaml, long endNs) {
    Kernel k = TestKernels.kernel(yaml);
    int checks = 0;
    for (long t = 20_000; t <= endNs; t += 20_000) {
      k.run(t);
      for (Cpu c : k.cpus) {
        assertThat(k.idleCpus[c.id])
            .as("idle map of cpu %d at %d ns", c.id, t)
            .isEqualTo(c.isIdle());
        int above = 0;
        for (Task q = c.queuedHead; q != null; q = q.rqNext) {
          above += q.classRank > SchedulingClass.RANK_FAIR ? 1 : 0;
        }
        assertThat(c.nrAboveFair)
            .as("tasks above fair on cpu %d at %d ns", c.id, t)
            .isEqualTo(above);
        checks++;
      }
    }
    return checks;
  }

  @Test
  void bothCopiesFollowWakeupsSleepsAndMixedClasses() {
    String yaml =
        "duration: 20ms\n"
            + "machine: {sockets: 1, cores_per_socket: 4, threads_per_core: 2}\n"
            + "workload:\n  tasks:\n"
            + "    - {name: hog, count: 6, program: [{user: 300us}, {sleep: 200us}]}\n"
            + "    - {name: rt, count: 3, policy: fifo, rt_priority: 20, "
            + "program: [{sleep: 150us}, {user: 40us}]}\n"
            + "    - {name: batch, count: 2, policy: idle, program: [{user: 1ms}, {sleep: 50us}]}\n";
    assertThat(runChecking(yaml, 20_000_000)).isEqualTo(1000 * 8);
  }

  @Test
  void aQueuedTaskBoostedAboveFairIsCountedWhileBoosted() {
    // CPU 0 only: low (fair) holds S, is preempted by mid (FIFO 10) and boosted to FIFO 50 while
    // queued when high blocks on S (rtmutex PI under PREEMPT_RT); its count follows the boost.
    String yaml =
        "duration: 3ms\n"
            + "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1, idle_states: poll-only}\n"
            + "kernel: {preempt: full, rt: true}\n"
            + "workload:\n  locks: {S: spinlock}\n  tasks:\n"
            + "    - {name: low, program: [{kernel: [{lock: S}, {duration: 1ms}, {unlock: S}]}, exit]}\n"
            + "    - {name: mid, policy: fifo, rt_priority: 10, program: [{sleep: 100us}, {user: 2ms}, "
            + "exit]}\n"
            + "    - {name: high, policy: fifo, rt_priority: 50, program: [{sleep: 200us}, "
            + "{kernel: [{lock: S}, {duration: 10us}, {unlock: S}]}, exit]}\n";
    assertThat(runChecking(yaml, 3_000_000)).isEqualTo(150);
  }

  @Test
  void equalExpiriesFireInArmingOrderAfterRemovals() {
    Kernel k =
        TestKernels.kernel(
            "duration: 1ms\n"
                + "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1}\n"
                + "workload:\n  tasks:\n    - {name: t, program: [{user: 1ms}]}\n");
    Cpu cpu = k.cpus[0]; // expiries past the run's end: none fires, only the base's order counts
    HrTimer a = new HrTimer(k, 0, (x, now) -> {}, null);
    HrTimer b = new HrTimer(k, 0, (x, now) -> {}, null);
    HrTimer c = new HrTimer(k, 0, (x, now) -> {}, null);
    HrTimer d = new HrTimer(k, 0, (x, now) -> {}, null);
    int before = cpu.nrTimers;
    a.arm(900_000_000);
    b.arm(900_000_000);
    c.arm(800_000_000);
    d.arm(900_000_000);
    // Removing c moves the last slot (d) into its place; d must still sort after a and b.
    c.cancel();
    assertThat(cpu.nrTimers).isEqualTo(before + 3);
    a.cancel();
    assertThat(cpu.earliestTimer()).isSameAs(b);
    a.arm(900_000_000); // re-armed: now the last of the three
    b.cancel();
    assertThat(cpu.earliestTimer()).isSameAs(d);
    d.cancel();
    assertThat(cpu.earliestTimer()).isSameAs(a);
    a.cancel();
    assertThat(cpu.nrTimers).isEqualTo(before);
  }
}
