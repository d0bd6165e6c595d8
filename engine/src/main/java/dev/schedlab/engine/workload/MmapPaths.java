package dev.schedlab.engine.workload;

import static dev.schedlab.engine.workload.MmapCosts.CHANGE_PTE;
import static dev.schedlab.engine.workload.MmapCosts.CLEAR_PAGE;
import static dev.schedlab.engine.workload.MmapCosts.FAULT_ANON;
import static dev.schedlab.engine.workload.MmapCosts.FOLLOW_PTE;
import static dev.schedlab.engine.workload.MmapCosts.FREE_LRU;
import static dev.schedlab.engine.workload.MmapCosts.FREE_OTHER;
import static dev.schedlab.engine.workload.MmapCosts.FREE_PCP;
import static dev.schedlab.engine.workload.MmapCosts.FREE_PGTABLES;
import static dev.schedlab.engine.workload.MmapCosts.GUP_STEP;
import static dev.schedlab.engine.workload.MmapCosts.LRU_ADD;
import static dev.schedlab.engine.workload.MmapCosts.MADVISE_ENTRY;
import static dev.schedlab.engine.workload.MmapCosts.MMAP_FIXED_VMA;
import static dev.schedlab.engine.workload.MmapCosts.MMAP_VMA;
import static dev.schedlab.engine.workload.MmapCosts.MPROTECT_VMA;
import static dev.schedlab.engine.workload.MmapCosts.MUNMAP_TAIL;
import static dev.schedlab.engine.workload.MmapCosts.MUNMAP_VMA;
import static dev.schedlab.engine.workload.MmapCosts.PCP_ALLOC;
import static dev.schedlab.engine.workload.MmapCosts.PCP_BATCH;
import static dev.schedlab.engine.workload.MmapCosts.PCP_HIGH;
import static dev.schedlab.engine.workload.MmapCosts.PTE_ALLOC;
import static dev.schedlab.engine.workload.MmapCosts.PTE_INSTALL;
import static dev.schedlab.engine.workload.MmapCosts.TLB_FLUSH;
import static dev.schedlab.engine.workload.MmapCosts.WP_FLUSH;
import static dev.schedlab.engine.workload.MmapCosts.ZAP_PER_PTE;
import static dev.schedlab.engine.workload.MmapCosts.ZAP_PMD_STEP;
import static dev.schedlab.engine.workload.MmapCosts.ZAP_ZERO_PTE;
import static dev.schedlab.engine.workload.MmapCosts.ZERO_FAULT;
import static dev.schedlab.engine.workload.MmapCosts.ZERO_PTE;
import static dev.schedlab.engine.workload.MmapCosts.ZONE_PER_PAGE;

import dev.schedlab.engine.scenario.Dist;
import dev.schedlab.engine.scenario.LockSpec;
import dev.schedlab.engine.scenario.StepSpec;
import dev.schedlab.engine.scenario.StepSpec.Segment;
import java.util.ArrayList;
import java.util.List;

/**
 * The kernel paths stress-mmap.c reaches, as segments of the v6.8-era mm code (the kernel the
 * PREEMPT_AUTO series was based on). Each segment stands for a kernel function and says whether
 * it runs with preemption on, and which point ends it: {@code COND_RESCHED}, {@code
 * MIGHT_RESCHED} (might_sleep in an allocation or a sleeping lock) or {@code NONE}; a locked
 * segment also ends with its unlock (preempt_enable). A {@link StepSpec.Kernel} returns to user
 * after its last segment. Sources: mm/mmu_gather.c @06d07429 (tlb_batch_pages_flush,
 * __tlb_remove_page_size, tlb_next_batch), mm/gup.c __get_user_pages (cond_resched at the loop
 * top, per page); zap_pmd_range/zap_pte_range (mm/memory.c), release_pages and
 * free_unref_page_list (mm/swap.c, mm/page_alloc.c) as of v6.8.
 *
 * <p>The locks are the kernel's ({@link #LOCKS}): {@code mmap_lock} (written by mmap, munmap and
 * mprotect, read by populate, madvise and faults; v6.4+ faults first try the per-VMA lock, which
 * is as uncontended here), the page-table lock around PTE updates, {@code pcp->lock} around the
 * per-CPU page lists, {@code zone->lock} (IRQs off) when a list is refilled
 * ({@code rmqueue_bulk}) or drained past its high mark ({@code free_pcppages_bulk}), and the
 * lruvec's {@code lru_lock} (IRQs off) when the per-CPU folio batch moves to the LRU
 * ({@code folio_batch_move_lru}, every 15 folios) and in {@code release_pages} (every 32). The
 * pcp lists and folio batches are per-CPU counts ({@code cache} items) shared by every worker on
 * the CPU. Workers are separate processes (fork), so mmap_lock and the page-table locks are
 * theirs alone; zone->lock and lru_lock are per NUMA node and shared (one memory cgroup).
 */
final class MmapPaths {
  /** Page-table state of a range, which decides the per-page kernel work. */
  enum Pages { ABSENT, ZERO, ANON }

  /** [src] PTRS_PER_PTE, x86-64 4K: PTEs zapped under one PTL hold, then cond_resched(). */
  static final int PTES_PER_PMD = 512;
  /** [src] include/asm-generic/tlb.h MMU_GATHER_BUNDLE: the on-stack first gather batch. */
  static final int GATHER_BUNDLE = 8;
  /** [derived] MAX_GATHER_BATCH = (PAGE_SIZE - sizeof(struct mmu_gather_batch)) / sizeof(void *). */
  static final int GATHER_BATCH = (4096 - 16) / 8;
  /** [src] MAX_GATHER_BATCH_COUNT = 10000 / MAX_GATHER_BATCH extra batches, then a forced flush. */
  static final int GATHER_BATCHES = 10_000 / GATHER_BATCH;
  /** [src] tlb_batch_pages_flush: min(512U, batch->nr) pages freed between cond_resched()s. */
  static final int FREE_CHUNK = 512;
  /** [src] SWAP_CLUSTER_MAX: release_pages / free_unref_page_list drop their lock every 32. */
  static final int LOCK_BATCH = 32;
  /** [src] PAGEVEC_SIZE (v6.8 folio_batch): folio_add_lru drains to the LRU every 15 folios. */
  static final int LRU_ADD_BATCH = 15;

  /** The kernel locks these paths take. */
  static final String MMAP_LOCK = "mmap_lock";
  static final String PTL = "ptl";
  static final String PCP_LOCK = "pcp->lock";
  static final String ZONE_LOCK = "zone->lock";
  static final String LRU_LOCK = "lru_lock";
  static final List<LockSpec> LOCKS = List.of(
      new LockSpec(MMAP_LOCK, LockSpec.Kind.RWSEM, LockSpec.Scope.PROCESS),
      new LockSpec(PTL, LockSpec.Kind.SPINLOCK, LockSpec.Scope.PROCESS),
      new LockSpec(PCP_LOCK, LockSpec.Kind.SPINLOCK, LockSpec.Scope.CPU),
      new LockSpec(ZONE_LOCK, LockSpec.Kind.SPINLOCK, LockSpec.Scope.NODE),
      new LockSpec(LRU_LOCK, LockSpec.Kind.SPINLOCK, LockSpec.Scope.NODE));
  // The lock items are immutable: one instance each, shared by every path (fewer objects).
  private static final Segment MMAP_WRITE = Segment.lock(MMAP_LOCK, false, false);
  private static final Segment MMAP_READ = Segment.lock(MMAP_LOCK, false, true);
  private static final Segment MMAP_UNLOCK = Segment.unlock(MMAP_LOCK);
  private static final Segment PTL_LOCK = Segment.lock(PTL, false, false);
  private static final Segment PTL_UNLOCK = Segment.unlock(PTL);
  private static final Segment PCP_TAKE = Segment.lock(PCP_LOCK, false, false);
  private static final Segment PCP_UNLOCK = Segment.unlock(PCP_LOCK);
  private static final Segment ZONE_TAKE = Segment.lock(ZONE_LOCK, true, false);
  private static final Segment ZONE_UNLOCK = Segment.unlock(ZONE_LOCK);
  private static final Segment LRU_TAKE = Segment.lock(LRU_LOCK, true, false);
  private static final Segment LRU_UNLOCK = Segment.unlock(LRU_LOCK);
  /** The per-CPU caches: the order-0 pcp list, the lru_add folio batch. */
  private static final String PCP = "pcp";
  private static final String LRU_ADD_FBATCH = "lru_add";

  private final ToolContext ctx;
  private final int spread;

  MmapPaths(ToolContext ctx) {
    this.ctx = ctx;
    this.spread = (int) Math.max(0, Math.min(100, ctx.param(MmapCosts.SPREAD)));
  }

  /**
   * munmap / unmap_region over {@code n} pages in {@code state}: VMA detach, zap_pmd_range (per PMD
   * the PTL held over its PTEs, cond_resched after), tlb_finish_mmu (TLB flush, then the gathered
   * pages freed per batch with cond_resched between), free_pgtables. A gather that fills up forces
   * a flush in the middle of a PMD (zap_pte_range force_flush).
   */
  StepSpec munmap(long n, Pages state) {
    List<Segment> s = new ArrayList<>();
    s.add(MMAP_WRITE); // mmap_write_lock_killable (might_sleep)
    s.add(seg(ctx.param(MUNMAP_VMA), "MIGHT_RESCHED")); // VMA split, detach, lock downgrade
    long capacity = GATHER_BUNDLE + (long) GATHER_BATCHES * GATHER_BATCH;
    long gathered = 0;
    for (long left = n; left > 0; left -= PTES_PER_PMD) {
      long ptes = Math.min(left, PTES_PER_PMD);
      if (state == Pages.ABSENT) { // pmd_none: nothing to lock
        s.add(seg(ctx.param(ZAP_PMD_STEP), "COND_RESCHED"));
        continue;
      }
      s.add(seg(ctx.param(ZAP_PMD_STEP), "NONE"));
      if (state == Pages.ZERO) {
        ptl(s, ptes * ctx.param(ZAP_ZERO_PTE), "COND_RESCHED");
        continue;
      }
      while (gathered + ptes > capacity) { // force_flush: unlock, tlb_flush_mmu, retry the rest
        long k = capacity - gathered;
        ptl(s, k * ctx.param(ZAP_PER_PTE), "NONE");
        flush(s, capacity);
        gathered = 0;
        ptes -= k;
      }
      ptl(s, ptes * ctx.param(ZAP_PER_PTE), "COND_RESCHED");
      gathered += ptes;
    }
    flush(s, gathered);
    long pmds = (n + PTES_PER_PMD - 1) / PTES_PER_PMD;
    s.add(seg(pmds * ctx.param(FREE_PGTABLES) + ctx.param(MUNMAP_TAIL), "NONE"));
    s.add(MMAP_UNLOCK);
    return new StepSpec.Kernel(s);
  }

  /** A PTE-lock span ({@code pte_offset_map_lock} ... {@code pte_unmap_unlock}), then {@code ends}. */
  private void ptl(List<Segment> s, long ns, String ends) {
    s.add(PTL_LOCK);
    s.add(seg(ns, "NONE"));
    s.add(PTL_UNLOCK);
    if (!"NONE".equals(ends)) {
      s.add(seg(0, ends));
    }
  }

  /** tlb_flush_mmu: TLB flush (preemption off), then tlb_batch_pages_flush of {@code pages}. */
  private void flush(List<Segment> s, long pages) {
    s.add(locked(ctx.param(TLB_FLUSH), false, "NONE"));
    if (pages == 0) {
      return;
    }
    freeChunk(s, Math.min(pages, GATHER_BUNDLE));
    for (long left = pages - GATHER_BUNDLE; left > 0; left -= GATHER_BATCH) {
      freeChunk(s, Math.min(left, Math.min(GATHER_BATCH, FREE_CHUNK)));
    }
  }

  /**
   * free_pages_and_swap_cache of one batch, then cond_resched: release_pages holds lru_lock (IRQs
   * off) over up to 32 folios, then the memcg uncharge, then free_unref_page_list holds pcp->lock
   * over up to 32 and, when the CPU's list passes its high mark, drains a batch to the zone under
   * zone->lock. No voluntary point inside the batch.
   */
  private void freeChunk(List<Segment> s, long c) {
    for (long b = c; b > 0; b -= LOCK_BATCH) {
      s.add(LRU_TAKE);
      s.add(seg(Math.min(b, LOCK_BATCH) * ctx.param(FREE_LRU), "NONE"));
      s.add(LRU_UNLOCK);
    }
    s.add(seg(c * ctx.param(FREE_OTHER), "NONE"));
    for (long b = c; b > 0; b -= LOCK_BATCH) {
      s.add(PCP_TAKE);
      s.add(seg(Math.min(b, LOCK_BATCH) * ctx.param(FREE_PCP), "NONE"));
      zoneBatch(s, true, (int) Math.min(b, LOCK_BATCH));
      s.add(PCP_UNLOCK);
    }
    s.add(seg(0, "COND_RESCHED"));
  }

  /**
   * A refill ({@code rmqueue_bulk}, a get of {@code pages}) or drain ({@code free_pcppages_bulk},
   * a put) of this CPU's pcp list: when due, a batch of pages under zone->lock with IRQs off.
   */
  private void zoneBatch(List<Segment> s, boolean put, int pages) {
    int batch = (int) ctx.param(PCP_BATCH);
    s.add(Segment.cache(PCP, put, Math.min(pages, batch), batch,
        put ? (int) Math.max(batch, ctx.param(PCP_HIGH)) : 0, 3));
    s.add(ZONE_TAKE);
    s.add(seg(batch * ctx.param(ZONE_PER_PAGE), "NONE"));
    s.add(ZONE_UNLOCK);
  }

  /**
   * __get_user_pages over {@code n} pages: per page cond_resched() at the loop top, then a present
   * page's lookup (PTL briefly) or a fault on an absent one ({@code write}: anonymous page, else
   * the zero page).
   */
  void gup(List<Segment> s, long n, Pages from, boolean write) {
    for (long i = 0; i < n; i++) {
      s.add(seg(ctx.param(GUP_STEP), "COND_RESCHED"));
      if (from != Pages.ABSENT) {
        ptl(s, ctx.param(FOLLOW_PTE), "NONE");
        continue;
      }
      // pte_alloc_one (GFP_KERNEL) for the first page of each PMD; a one-page call (step 2) finds
      // the table there for 511 of 512 pages and is given none
      if (i % PTES_PER_PMD == 0 && n > 1) {
        s.add(seg(ctx.param(PTE_ALLOC), "MIGHT_RESCHED"));
      }
      if (write) {
        anonFault(s, false);
      } else {
        s.add(seg(ctx.param(ZERO_FAULT), "NONE"));
        ptl(s, ctx.param(ZERO_PTE), "NONE");
      }
    }
  }

  /**
   * do_anonymous_page (or wp_page_copy over the zero page, {@code overZero}) for a write: folio
   * allocation (might_alloc = might_sleep; the pcp list under pcp->lock, refilled under
   * zone->lock when empty), clear_page, memcg charge, then the PTE under the page-table lock,
   * where folio_add_lru_vma puts the folio in the CPU's lru_add batch, which moves to the LRU
   * under lru_lock (IRQs off) when it is full.
   */
  void anonFault(List<Segment> s, boolean overZero) {
    s.add(seg(ctx.param(FAULT_ANON), "MIGHT_RESCHED"));
    s.add(PCP_TAKE);
    zoneBatch(s, false, 1);
    s.add(seg(ctx.param(PCP_ALLOC), "NONE"));
    s.add(PCP_UNLOCK);
    s.add(seg(ctx.param(CLEAR_PAGE), "NONE"));
    s.add(PTL_LOCK);
    s.add(seg(ctx.param(PTE_INSTALL) + (overZero ? ctx.param(WP_FLUSH) : 0), "NONE"));
    s.add(Segment.cache(LRU_ADD_FBATCH, true, 1, LRU_ADD_BATCH, LRU_ADD_BATCH, 3));
    s.add(LRU_TAKE);
    s.add(seg(LRU_ADD_BATCH * ctx.param(LRU_ADD), "NONE"));
    s.add(LRU_UNLOCK);
    s.add(PTL_UNLOCK);
  }

  /** madvise(MADV_POPULATE_READ) over {@code n} pages (stress_mincore_touch_pages). */
  StepSpec populateRead(long n, Pages state) {
    List<Segment> s = new ArrayList<>();
    s.add(MMAP_READ); // mmap_read_lock (might_sleep)
    s.add(seg(ctx.param(MADVISE_ENTRY), "NONE"));
    gup(s, n, state, false);
    s.add(MMAP_UNLOCK);
    return new StepSpec.Kernel(s);
  }

  /**
   * mmap() of {@code n} pages: the VMA under the mmap write lock, then, with {@code populate}
   * (MAP_POPULATE, MAP_LOCKED), __mm_populate under the read lock: write faults on every page.
   */
  StepSpec mmap(long n, boolean populate, boolean fixed) {
    List<Segment> s = new ArrayList<>();
    s.add(MMAP_WRITE);
    s.add(seg(ctx.param(fixed ? MMAP_FIXED_VMA : MMAP_VMA), "MIGHT_RESCHED"));
    s.add(MMAP_UNLOCK);
    if (populate) {
      s.add(MMAP_READ);
      gup(s, n, Pages.ABSENT, true);
      s.add(MMAP_UNLOCK);
    }
    return new StepSpec.Kernel(s);
  }

  /** A write from user space to one page: a fault unless the page is already anonymous. */
  StepSpec writeFault(Pages state) {
    List<Segment> s = new ArrayList<>();
    s.add(MMAP_READ); // lock_vma_under_rcu / mmap_read_lock
    if (state == Pages.ABSENT) {
      s.add(seg(ctx.param(PTE_ALLOC), "MIGHT_RESCHED"));
    }
    anonFault(s, state == Pages.ZERO);
    s.add(MMAP_UNLOCK);
    return new StepSpec.Kernel(s);
  }

  /** mprotect over {@code n} pages: mprotect_fixup, then change_pte_range per PMD. */
  StepSpec mprotect(long n) {
    List<Segment> s = new ArrayList<>();
    s.add(MMAP_WRITE);
    s.add(seg(ctx.param(MPROTECT_VMA), "MIGHT_RESCHED"));
    for (long left = n; left > 0; left -= PTES_PER_PMD) {
      s.add(seg(ctx.param(ZAP_PMD_STEP), "NONE"));
      // change_pmd_range: cond_resched() after each PMD's PTL span
      ptl(s, Math.min(left, PTES_PER_PMD) * ctx.param(CHANGE_PTE), "COND_RESCHED");
    }
    s.add(MMAP_UNLOCK);
    return new StepSpec.Kernel(s);
  }

  Segment seg(long meanNs, String ends) {
    return new Segment(dist(meanNs), true, false, ends);
  }

  /** A preempt-disabled span (spinlock held); with {@code irqsOff} also IRQs disabled. */
  private Segment locked(long meanNs, boolean irqsOff, String ends) {
    return new Segment(dist(meanNs), false, irqsOff, ends);
  }

  Dist dist(long meanNs) {
    long d = meanNs * spread / 100;
    return d == 0 ? Dist.fixed(meanNs) : Dist.uniform(meanNs - d, meanNs + d);
  }
}
