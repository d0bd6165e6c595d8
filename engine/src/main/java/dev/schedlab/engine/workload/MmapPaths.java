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
import static dev.schedlab.engine.workload.MmapCosts.MPROTECT_VMA;
import static dev.schedlab.engine.workload.MmapCosts.MUNMAP_TAIL;
import static dev.schedlab.engine.workload.MmapCosts.MUNMAP_VMA;
import static dev.schedlab.engine.workload.MmapCosts.PTE_ALLOC;
import static dev.schedlab.engine.workload.MmapCosts.PTE_INSTALL;
import static dev.schedlab.engine.workload.MmapCosts.TLB_FLUSH;
import static dev.schedlab.engine.workload.MmapCosts.WP_FLUSH;
import static dev.schedlab.engine.workload.MmapCosts.ZAP_PER_PTE;
import static dev.schedlab.engine.workload.MmapCosts.ZAP_PMD_STEP;
import static dev.schedlab.engine.workload.MmapCosts.ZAP_ZERO_PTE;
import static dev.schedlab.engine.workload.MmapCosts.ZERO_FAULT;
import static dev.schedlab.engine.workload.MmapCosts.ZERO_PTE;

import dev.schedlab.engine.scenario.Dist;
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
    s.add(seg(ctx.param(MUNMAP_VMA), "MIGHT_RESCHED")); // mmap_write_lock_killable, VMA split
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
        s.add(locked(ptes * ctx.param(ZAP_ZERO_PTE), false, "COND_RESCHED"));
        continue;
      }
      while (gathered + ptes > capacity) { // force_flush: unlock, tlb_flush_mmu, retry the rest
        long k = capacity - gathered;
        s.add(locked(k * ctx.param(ZAP_PER_PTE), false, "NONE"));
        flush(s, capacity);
        gathered = 0;
        ptes -= k;
      }
      s.add(locked(ptes * ctx.param(ZAP_PER_PTE), false, "COND_RESCHED"));
      gathered += ptes;
    }
    flush(s, gathered);
    long pmds = (n + PTES_PER_PMD - 1) / PTES_PER_PMD;
    s.add(seg(pmds * ctx.param(FREE_PGTABLES) + ctx.param(MUNMAP_TAIL), "NONE"));
    return new StepSpec.Kernel(s);
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
   * free_pages_and_swap_cache of one batch, then cond_resched: release_pages holds the lru lock
   * (IRQs off) over up to 32 folios, then the memcg uncharge, then free_unref_page_list holds the
   * pcp lock over up to 32. No voluntary point inside the batch.
   */
  private void freeChunk(List<Segment> s, long c) {
    for (long b = c; b > 0; b -= LOCK_BATCH) {
      s.add(locked(Math.min(b, LOCK_BATCH) * ctx.param(FREE_LRU), true, "NONE"));
    }
    s.add(seg(c * ctx.param(FREE_OTHER), "NONE"));
    for (long b = c; b > 0; b -= LOCK_BATCH) {
      s.add(locked(Math.min(b, LOCK_BATCH) * ctx.param(FREE_PCP), false,
          b <= LOCK_BATCH ? "COND_RESCHED" : "NONE"));
    }
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
        s.add(locked(ctx.param(FOLLOW_PTE), false, "NONE"));
        continue;
      }
      // pte_alloc_one (GFP_KERNEL) for the first page of each PMD; a one-page call (step 2) finds
      // the table there for 511 of 512 pages and is given none
      if (i % PTES_PER_PMD == 0 && n > 1) {
        s.add(seg(ctx.param(PTE_ALLOC), "MIGHT_RESCHED"));
      }
      if (write) {
        anonFault(s, i, false);
      } else {
        s.add(seg(ctx.param(ZERO_FAULT), "NONE"));
        s.add(locked(ctx.param(ZERO_PTE), false, "NONE"));
      }
    }
  }

  /**
   * do_anonymous_page (or wp_page_copy over the zero page, {@code overZero}) for a write: folio
   * allocation (might_alloc = might_sleep), clear_page, memcg charge, then the PTE under the PTL;
   * every 15th folio drains the lru_add batch under the lru lock (IRQs off).
   */
  void anonFault(List<Segment> s, long nth, boolean overZero) {
    s.add(seg(ctx.param(FAULT_ANON), "MIGHT_RESCHED"));
    s.add(seg(ctx.param(CLEAR_PAGE), "NONE"));
    s.add(locked(ctx.param(PTE_INSTALL) + (overZero ? ctx.param(WP_FLUSH) : 0), false, "NONE"));
    if (nth % LRU_ADD_BATCH == LRU_ADD_BATCH - 1) {
      s.add(locked(LRU_ADD_BATCH * ctx.param(LRU_ADD), true, "NONE"));
    }
  }

  /** madvise(MADV_POPULATE_READ) over {@code n} pages (stress_mincore_touch_pages). */
  StepSpec populateRead(long n, Pages state) {
    List<Segment> s = new ArrayList<>();
    s.add(seg(ctx.param(MADVISE_ENTRY), "MIGHT_RESCHED")); // mmap_read_lock
    gup(s, n, state, false);
    return new StepSpec.Kernel(s);
  }

  /** A write from user space to one page: a fault unless the page is already anonymous. */
  StepSpec writeFault(Pages state, long nth) {
    List<Segment> s = new ArrayList<>();
    if (state == Pages.ABSENT) {
      s.add(seg(ctx.param(PTE_ALLOC), "MIGHT_RESCHED"));
    }
    anonFault(s, nth, state == Pages.ZERO);
    return new StepSpec.Kernel(s);
  }

  /** mprotect over {@code n} pages: mprotect_fixup, then change_pte_range per PMD. */
  StepSpec mprotect(long n) {
    List<Segment> s = new ArrayList<>();
    s.add(seg(ctx.param(MPROTECT_VMA), "MIGHT_RESCHED"));
    for (long left = n; left > 0; left -= PTES_PER_PMD) {
      s.add(seg(ctx.param(ZAP_PMD_STEP), "NONE"));
      // change_pmd_range: cond_resched() after each PMD's PTL span
      s.add(locked(Math.min(left, PTES_PER_PMD) * ctx.param(CHANGE_PTE), false, "COND_RESCHED"));
    }
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
