package dev.schedlab.engine.core;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The statistics of one lock class as {@code /proc/lock_stat} prints them, times in ns.
 *
 * <p>Models: contentions and their wait times (from the first failed attempt to the acquisition),
 * acquisitions and their hold times (acquisition to release), and bounces: contentions and
 * acquisitions on a CPU other than the one that took the lock last (the lock's cache line came from
 * another CPU).
 *
 * <p>Does not model: the contention points (the call sites lock_stat lists under each class) and
 * separate read and write figures of rw_semaphores.
 *
 * <p>Kernel reference: {@code kernel/locking/lockdep.c} ({@code lock_contended}, {@code
 * lock_acquired}), Documentation/locking/lockstat.rst.
 */
final class LockStat {
  final String name;
  long conBounces;
  long contentions;
  private long waitMin = Long.MAX_VALUE;
  private long waitMax;
  private long waitTotal;
  long acqBounces;
  long acquisitions;
  private long holdMin = Long.MAX_VALUE;
  private long holdMax;
  private long holdTotal;

  LockStat(String name) {
    this.name = name;
  }

  void waited(long ns) {
    waitMin = Math.min(waitMin, ns);
    waitMax = Math.max(waitMax, ns);
    waitTotal += ns;
  }

  void held(long ns) {
    holdMin = Math.min(holdMin, ns);
    holdMax = Math.max(holdMax, ns);
    holdTotal += ns;
  }

  /** The lock_stat columns (times in ns; averages over contentions and acquisitions). */
  Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("con-bounces", conBounces);
    m.put("contentions", contentions);
    m.put("waittime-min", contentions == 0 ? 0 : waitMin);
    m.put("waittime-max", waitMax);
    m.put("waittime-total", waitTotal);
    m.put("waittime-avg", contentions == 0 ? 0 : waitTotal / contentions);
    m.put("acq-bounces", acqBounces);
    m.put("acquisitions", acquisitions);
    m.put("holdtime-min", holdMin == Long.MAX_VALUE ? 0 : holdMin);
    m.put("holdtime-max", holdMax);
    m.put("holdtime-total", holdTotal);
    m.put("holdtime-avg", acquisitions == 0 ? 0 : holdTotal / acquisitions);
    return m;
  }
}
