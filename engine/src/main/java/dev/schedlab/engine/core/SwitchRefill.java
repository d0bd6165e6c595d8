package dev.schedlab.engine.core;

/**
 * The cache refill a task pays when it is switched in after other tasks ran on its CPU: after d
 * distinct other tasks ran there since it last did, it refills {@code latency.switch_refill} × (1 −
 * keep^(d−1)), keep being {@code latency.switch_refill_keep_pct} (each task after the first leaves
 * that share of its lines in place); a task never run on the CPU, or not among its last {@link
 * #DEPTH} tasks, refills it all. Two tasks taking turns (d = 1) pay nothing, as the calibration's
 * pipe pair; hackbench's forty processes on two CPUs pay most of it.
 *
 * <p>Models: recency per CPU (the idle task neither counts nor pays). Does not model: sizes of the
 * tasks' working sets (every task has the same one), sharing between threads of one mm, the
 * refill's spread over the task's run (it is charged at the switch), the CPUs' shared caches.
 */
final class SwitchRefill {
  /** How many distinct tasks each CPU remembers; deeper than this a task refills all. */
  static final int DEPTH = 16;

  private final long refillNs;
  private final long keepPct;

  /** Per CPU, pids of the tasks switched in there, most recent first; -1 = empty. */
  private final int[][] recent;

  SwitchRefill(int nrCpus, long refillNs, long keepPct) {
    this.refillNs = refillNs;
    this.keepPct = keepPct;
    this.recent = new int[refillNs > 0 ? nrCpus : 0][DEPTH];
    for (int[] r : recent) {
      java.util.Arrays.fill(r, -1);
    }
  }

  /** The refill {@code next} pays on being switched in on {@code cpu}; records the switch. */
  long switchIn(int cpu, Task next) {
    if (refillNs <= 0 || next.idleTask) {
      return 0;
    }
    int[] r = recent[cpu];
    int at = 0;
    while (at < DEPTH && r[at] != next.pid) {
      at++;
    }
    // move to front: the entries before it shift down one (the oldest drops when not found)
    System.arraycopy(r, 0, r, 1, Math.min(at, DEPTH - 1));
    r[0] = next.pid;
    return at == DEPTH ? refillNs : refill(at);
  }

  /** The refill after {@code others} other tasks ran since: 1 − keep^(others − 1) of it. */
  long refill(int others) {
    double kept = 1.0;
    for (int i = 1; i < others; i++) {
      kept = kept * keepPct / 100.0;
    }
    return Math.round(refillNs * (1.0 - kept));
  }
}
