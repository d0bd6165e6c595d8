package dev.schedlab.engine.core;

import dev.schedlab.engine.config.StepSpec;

/**
 * One named per-CPU cache of a run ({@link StepSpec.CacheAction}): per CPU its object count and,
 * for the page allocator's lists with high auto-tuning, {@code struct per_cpu_pages}' {@code high},
 * {@code alloc_factor} and {@code free_count}. Each operation returns how many objects its refill
 * or drain moves (0: none, its items are skipped).
 *
 * <p>Models: a fixed cache (a refill of {@code batch} when too few, a drain of {@code batch} at
 * {@code high}); the v6.7 pcp high auto-tuning of one order-0 list as v6.8 mm/page_alloc.c has it:
 * {@code rmqueue_pcplist} (free_count halves per allocation), {@code nr_pcp_alloc} (refill of
 * {@code batch << alloc_factor}, high raised by it), {@code free_unref_page_commit} with {@code
 * nr_pcp_high} and {@code nr_pcp_free} per freed page, {@code decay_pcp_high}.
 *
 * <p>Does not model: the other migratetype and order lists, high-order frees ({@code free_high}),
 * ZONE_BELOW_HIGH and ZONE_RECLAIM_ACTIVE (the zone is taken to be well above its watermarks), a
 * refill that finds the zone short of pages.
 *
 * <p>Kernel reference: mm/page_alloc.c (v6.8); "mm: tune PCP high automatically" (51a755c56dc0),
 * "mm, page_alloc: scale the number of pages that are batch allocated", "mm: restrict the pcp batch
 * scale factor to avoid too long latency" (CONFIG_PCP_BATCH_SCALE_MAX).
 */
final class PerCpuCache {
  private final int[] count;
  private final int[] high;
  private final int[] allocFactor;
  private final int[] freeCount;

  PerCpuCache(int cpus) {
    count = new int[cpus];
    high = new int[cpus];
    allocFactor = new int[cpus];
    freeCount = new int[cpus];
  }

  /** Objects cached on {@code cpu}. */
  int count(int cpu) {
    return count[cpu];
  }

  /** The list's current high mark on {@code cpu} (auto-tuned caches; 0 before their first use). */
  int high(int cpu) {
    return high[cpu];
  }

  /** Runs {@code c} on {@code cpu}; returns the objects its refill or drain moves (0: none). */
  int apply(int cpu, Op.CacheOp c) {
    StepSpec.AutoHigh auto = c.auto();
    if (auto == null) {
      return fixed(cpu, c);
    }
    if (!c.put()) {
      return get(cpu, c, auto);
    }
    return c.count() == 0 ? decay(cpu, c, auto) : put(cpu, c, auto);
  }

  private int fixed(int cpu, Op.CacheOp c) {
    if (c.put()) {
      count[cpu] += c.count();
      if (count[cpu] < c.high()) {
        return 0;
      }
      count[cpu] -= c.batch();
      return c.batch();
    }
    int moved = count[cpu] < c.count() ? c.batch() : 0;
    count[cpu] += moved - c.count();
    return moved;
  }

  /** The allocations of {@code c.count()} pages: rmqueue_pcplist, refilling an empty list. */
  private int get(int cpu, Op.CacheOp c, StepSpec.AutoHigh auto) {
    int moved = 0;
    for (int i = 0; i < c.count(); i++) {
      freeCount[cpu] >>= 1;
      if (count[cpu] == 0) {
        int n = nrPcpAlloc(cpu, c, auto);
        count[cpu] += n;
        moved += n;
      }
      count[cpu]--;
    }
    return moved;
  }

  private int nrPcpAlloc(int cpu, Op.CacheOp c, StepSpec.AutoHigh auto) {
    int base = c.batch();
    int h = clampHigh(cpu, c, auto);
    int batch = base << allocFactor[cpu];
    if (c.high() != auto.highMax()) {
      h = high[cpu] = Math.min(h + batch, auto.highMax());
    }
    int maxNrAlloc = Math.max(h - count[cpu] - base, base);
    if (batch <= maxNrAlloc && allocFactor[cpu] < auto.scaleMax()) {
      allocFactor[cpu]++;
    }
    return Math.min(batch, maxNrAlloc);
  }

  /** The frees of {@code c.count()} pages: free_unref_page_commit per page. */
  private int put(int cpu, Op.CacheOp c, StepSpec.AutoHigh auto) {
    int base = c.batch();
    int moved = 0;
    for (int i = 0; i < c.count(); i++) {
      allocFactor[cpu] >>= 1;
      count[cpu]++;
      if (freeCount[cpu] < base << auto.scaleMax()) {
        freeCount[cpu]++;
      }
      int h = nrPcpHigh(cpu, c, auto);
      if (count[cpu] >= h) {
        // nr_pcp_free: the consecutive frees, at least a batch, leaving a batch on the list
        int n = Math.min(count[cpu], Math.min(Math.max(freeCount[cpu], base), h - base));
        count[cpu] -= n;
        moved += n;
      }
    }
    return moved;
  }

  private int nrPcpHigh(int cpu, Op.CacheOp c, StepSpec.AutoHigh auto) {
    int h = clampHigh(cpu, c, auto);
    if (c.high() != auto.highMax() && count[cpu] >= h) {
      int needHigh = freeCount[cpu] + c.batch();
      if (high[cpu] < needHigh) {
        high[cpu] = Math.max(c.high(), Math.min(needHigh, auto.highMax()));
      }
    }
    return h;
  }

  /** decay_pcp_high from the vmstat refresh: lower high by an eighth, drain what is above it. */
  private int decay(int cpu, Op.CacheOp c, StepSpec.AutoHigh auto) {
    int h = clampHigh(cpu, c, auto); // high_min until the first use
    if (h > c.high()) {
      high[cpu] = Math.max(count[cpu] - (c.batch() << auto.scaleMax()), h - (h >> 3));
      high[cpu] = Math.max(high[cpu], c.high());
    }
    int toDrain = count[cpu] - high[cpu];
    if (toDrain <= 0) {
      return 0;
    }
    count[cpu] -= toDrain;
    return toDrain;
  }

  /** {@code pcp->high = clamp(pcp->high, high_min, high_max)}. */
  private int clampHigh(int cpu, Op.CacheOp c, StepSpec.AutoHigh auto) {
    high[cpu] = Math.max(c.high(), Math.min(high[cpu], auto.highMax()));
    return high[cpu];
  }
}
