package dev.schedlab.lab.workload;

import static dev.schedlab.lab.workload.MmapCosts.CHANGE_PTE;
import static dev.schedlab.lab.workload.MmapCosts.CLEAR_PAGE;
import static dev.schedlab.lab.workload.MmapCosts.FAULT_ANON;
import static dev.schedlab.lab.workload.MmapCosts.FAULT_ENTRY;
import static dev.schedlab.lab.workload.MmapCosts.FOLLOW_PTE;
import static dev.schedlab.lab.workload.MmapCosts.FREE_BATCH_LRU;
import static dev.schedlab.lab.workload.MmapCosts.FREE_BATCH_OTHER;
import static dev.schedlab.lab.workload.MmapCosts.FREE_LRU;
import static dev.schedlab.lab.workload.MmapCosts.FREE_OTHER;
import static dev.schedlab.lab.workload.MmapCosts.FREE_PCP;
import static dev.schedlab.lab.workload.MmapCosts.FREE_PGTABLES;
import static dev.schedlab.lab.workload.MmapCosts.GUP_STEP;
import static dev.schedlab.lab.workload.MmapCosts.KSM_UNMERGE_STEP;
import static dev.schedlab.lab.workload.MmapCosts.LRU_ADD;
import static dev.schedlab.lab.workload.MmapCosts.MADVISE_COLD_PAGE;
import static dev.schedlab.lab.workload.MmapCosts.MADVISE_ENTRY;
import static dev.schedlab.lab.workload.MmapCosts.MADVISE_VMA;
import static dev.schedlab.lab.workload.MmapCosts.MADVISE_WALK_PTE;
import static dev.schedlab.lab.workload.MmapCosts.MEM_PER_CPU;
import static dev.schedlab.lab.workload.MmapCosts.MMAP_FIXED_VMA;
import static dev.schedlab.lab.workload.MmapCosts.MMAP_VMA;
import static dev.schedlab.lab.workload.MmapCosts.MPROTECT_VMA;
import static dev.schedlab.lab.workload.MmapCosts.MUNMAP_TAIL;
import static dev.schedlab.lab.workload.MmapCosts.MUNMAP_VMA;
import static dev.schedlab.lab.workload.MmapCosts.PAGEOUT_RECLAIM;
import static dev.schedlab.lab.workload.MmapCosts.PCP_ALLOC;
import static dev.schedlab.lab.workload.MmapCosts.PCP_BATCH;
import static dev.schedlab.lab.workload.MmapCosts.PCP_BATCH_SCALE_MAX;
import static dev.schedlab.lab.workload.MmapCosts.POPULATE_ENTRY;
import static dev.schedlab.lab.workload.MmapCosts.PTE_ALLOC;
import static dev.schedlab.lab.workload.MmapCosts.PTE_INSTALL;
import static dev.schedlab.lab.workload.MmapCosts.TLB_FLUSH;
import static dev.schedlab.lab.workload.MmapCosts.VMA_SPLIT;
import static dev.schedlab.lab.workload.MmapCosts.VMSTAT_REFRESH;
import static dev.schedlab.lab.workload.MmapCosts.WATERMARK_SCALE_FACTOR;
import static dev.schedlab.lab.workload.MmapCosts.WP_FLUSH;
import static dev.schedlab.lab.workload.MmapCosts.ZAP_PER_PTE;
import static dev.schedlab.lab.workload.MmapCosts.ZAP_PMD_STEP;
import static dev.schedlab.lab.workload.MmapCosts.ZAP_ZERO_PTE;
import static dev.schedlab.lab.workload.MmapCosts.ZERO_FAULT;
import static dev.schedlab.lab.workload.MmapCosts.ZERO_PTE;
import static dev.schedlab.lab.workload.MmapCosts.ZONE_PER_PAGE;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.StepSpec.Segment;
import java.util.List;

/**
 * The kernel paths stress-mmap.c reaches, as segments of the v6.8-era mm code (the kernel the
 * PREEMPT_AUTO series was based on). Each segment stands for a kernel function and says whether it
 * runs with preemption on, and which point ends it: {@code COND_RESCHED}, {@code MIGHT_RESCHED}
 * (might_sleep in an allocation or a sleeping lock) or {@code NONE}; a locked segment also ends
 * with its unlock (preempt_enable). A {@link StepSpec.Kernel} returns to user after its last
 * segment. Sources: mm/mmu_gather.c @06d07429 (tlb_batch_pages_flush, __tlb_remove_page_size,
 * tlb_next_batch), mm/gup.c __get_user_pages (cond_resched at the loop top, per page);
 * zap_pmd_range/zap_pte_range (mm/memory.c), release_pages and free_unref_page_list (mm/swap.c,
 * mm/page_alloc.c) as of v6.8.
 *
 * <p>The locks are the kernel's ({@link #LOCKS}): {@code mmap_lock} (written by mmap, munmap and
 * mprotect, read by populate, madvise and faults; v6.4+ faults first try the per-VMA lock, which is
 * as uncontended here), the page-table lock around PTE updates, {@code pcp->lock} around the
 * per-CPU page lists, {@code zone->lock} (IRQs off) when a list is refilled ({@code rmqueue_bulk})
 * or drained past its high mark ({@code free_pcppages_bulk}), and the lruvec's {@code lru_lock}
 * (IRQs off) when the per-CPU folio batch moves to the LRU ({@code folio_batch_move_lru}, every 15
 * folios) and in {@code release_pages} (every 32). The pcp lists and folio batches are per-CPU
 * counts ({@code cache} items) shared by every worker on the CPU; the pcp lists carry the v6.7 high
 * auto-tuning ({@link StepSpec.AutoHigh}, bounds from {@link PcpHigh}), one zone->lock hold per
 * refill or drain of however many pages it moves. Workers are separate processes (fork), so
 * mmap_lock and the page-table locks are theirs alone; zone->lock and lru_lock are per NUMA node
 * and shared (one memory cgroup).
 */
final class MmapPaths {
  /** Page-table state of a range, which decides the per-page kernel work. */
  enum Pages {
    ABSENT,
    ZERO,
    ANON
  }

  /**
   * The advices stress_madvise_random() draws from in stress-ng V0.17.04 (core-madvise.c
   * madvise_options[] on x86-64 Linux, in that order; MADV_DONTNEED and MADV_FREE are commented out
   * there), and the mergeable helper's MADV_MERGEABLE.
   */
  enum Advice {
    NORMAL,
    RANDOM,
    SEQUENTIAL,
    WILLNEED,
    DONTFORK,
    DOFORK,
    MERGEABLE,
    UNMERGEABLE,
    HUGEPAGE,
    NOHUGEPAGE,
    DONTDUMP,
    DODUMP,
    COLD,
    PAGEOUT,
    POPULATE_READ,
    POPULATE_WRITE;

    /**
     * Whether this VMA-flag advice changes the flags of the worker's anonymous VM_MERGEABLE VMA
     * (madvise_update_vma returns early when they stay the same), so that a range inside a larger
     * VMA is split off.
     */
    boolean changesFlags() {
      return switch (this) {
        case SEQUENTIAL, RANDOM, DONTFORK, HUGEPAGE, NOHUGEPAGE, DONTDUMP, UNMERGEABLE -> true;
        default -> false;
      };
    }

    /** The page-table state after this advice over a range in {@code state}. */
    Pages after(Pages state) {
      return switch (this) {
        case POPULATE_READ -> state == Pages.ABSENT ? Pages.ZERO : state;
        case POPULATE_WRITE -> Pages.ANON;
        default -> state;
      };
    }
  }

  /** [src] PTRS_PER_PTE, x86-64 4K: PTEs zapped under one PTL hold, then cond_resched(). */
  static final int PTES_PER_PMD = 512;

  /** [src] include/asm-generic/tlb.h MMU_GATHER_BUNDLE: the on-stack first gather batch. */
  static final int GATHER_BUNDLE = 8;

  /**
   * [derived] MAX_GATHER_BATCH = (PAGE_SIZE - sizeof(struct mmu_gather_batch)) / sizeof(void *).
   */
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
  static final List<LockSpec> LOCKS =
      List.of(
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
  private static final Segment ZONE_UNLOCK = Segment.unlock(ZONE_LOCK);
  private static final Segment LRU_UNLOCK = Segment.unlock(LRU_LOCK);

  /** The per-CPU caches: the order-0 pcp list, the lru_add folio batch. */
  private static final String PCP = "pcp";

  private static final String LRU_ADD_FBATCH = "lru_add";

  /** The CPU's rcu_free sheaf of maple_node_cache (mm/slub.c, v6.18). */
  private static final String RCU_SHEAF = "maple_node rcu_free sheaf";

  private static final String LRU_DEACTIVATE_FBATCH = "lru_deactivate";

  private final ToolContext ctx;
  private final int spread;

  /**
   * spin_lock_irqsave of zone->lock and of lru_lock, each with the shared data lines its critical
   * section writes: a folio taken off the LRU, folios put on it, a zone free-list batch.
   */
  private final Segment zoneTake;

  private final Segment lruDelTake;
  private final Segment lruAddTake;

  /** The pcp list's base batch, its high bounds and the auto-tuning, from the machine. */
  private final int batch;

  private final PcpHigh high;
  private final StepSpec.AutoHigh autoHigh;

  /** The pages a refill or drain moves, each under zone->lock ({@code zone_per_page}). */
  private final Segment zonePages;

  MmapPaths(ToolContext ctx) {
    this.ctx = ctx;
    this.batch = (int) Math.max(1, Math.min(1 << 16, ctx.param(PCP_BATCH)));
    int nodes = ctx.machine().sockets() * Math.max(1, ctx.machine().numaNodesPerSocket());
    this.high =
        PcpHigh.of(
            ctx.nrCpus(),
            nodes,
            Math.max(1, ctx.param(MEM_PER_CPU)),
            Math.max(0, ctx.param(WATERMARK_SCALE_FACTOR)),
            batch);
    int scaleMax = (int) Math.max(0, Math.min(10, ctx.param(PCP_BATCH_SCALE_MAX)));
    this.autoHigh = new StepSpec.AutoHigh(high.highMax(), scaleMax);
    this.zonePages = Segment.perCachedObject(dist(ctx.param(ZONE_PER_PAGE)));
    this.spread = (int) Math.max(0, Math.min(100, ctx.param(MmapCosts.SPREAD)));
    this.zoneTake = Segment.lock(ZONE_LOCK, true, false, lines(MmapCosts.ZONE_LINES));
    this.lruDelTake = Segment.lock(LRU_LOCK, true, false, lines(MmapCosts.LRU_DEL_LINES));
    this.lruAddTake = Segment.lock(LRU_LOCK, true, false, lines(MmapCosts.LRU_ADD_LINES));
  }

  private int lines(ToolParam p) {
    return (int) Math.max(0, Math.min(16, ctx.param(p)));
  }

  /**
   * munmap / unmap_region over {@code n} pages in {@code state}: VMA detach, zap_pmd_range (per PMD
   * the PTL held over its PTEs, cond_resched after), tlb_finish_mmu (TLB flush, then the gathered
   * pages freed per batch with cond_resched between), free_pgtables. A gather that fills up forces
   * a flush in the middle of a PMD (zap_pte_range force_flush).
   */
  StepSpec munmap(long n, Pages state) {
    return munmap(n, state, 0);
  }

  /**
   * munmap of {@code n} pages that splits their VMA {@code splits} times first (__split_vma in
   * vms_gather_munmap_vmas, once per side where the VMA goes on).
   */
  StepSpec munmap(long n, Pages state, int splits) {
    KernelPath p = new KernelPath();
    p.add(MMAP_WRITE); // mmap_write_lock_killable (might_sleep)
    splits(p, splits);
    p.add(seg(ctx.param(MUNMAP_VMA), "MIGHT_RESCHED")); // VMA split, detach, lock downgrade
    freeMapleNodes(p, 1); // the range's store of NULL (vms_complete_munmap_vmas)
    long fullPmds = n / PTES_PER_PMD;
    long lastPtes = n % PTES_PER_PMD;
    long gathered = 0;
    if (state == Pages.ABSENT) { // pmd_none: nothing to lock
      p.repeat(
          fullPmds + (lastPtes > 0 ? 1 : 0),
          new KernelPath().add(seg(ctx.param(ZAP_PMD_STEP), "COND_RESCHED")));
    } else if (state == Pages.ZERO) { // no page to gather
      p.repeat(fullPmds, zeroZap(PTES_PER_PMD));
      p.repeat(lastPtes > 0 ? 1 : 0, zeroZap(lastPtes));
    } else {
      gathered = anonZap(p, fullPmds, lastPtes);
    }
    flush(p, gathered);
    long pmds = (n + PTES_PER_PMD - 1) / PTES_PER_PMD;
    p.add(seg(pmds * ctx.param(FREE_PGTABLES) + ctx.param(MUNMAP_TAIL), "NONE"));
    if (n >= PTES_PER_PMD) { // whole PMDs go: their PTE tables, one batch at tlb_finish_mmu
      p.add(Segment.callRcu(1, ctx.param(MmapCosts.TLB_REMOVE_TABLE_RCU)));
    }
    p.add(MMAP_UNLOCK);
    return p.syscall();
  }

  /** __split_vma per split: it ends at the next GFP_KERNEL allocation (might_sleep). */
  private void splits(KernelPath p, int splits) {
    for (int i = 0; i < splits; i++) {
      p.add(seg(ctx.param(VMA_SPLIT), "MIGHT_RESCHED"));
      freeMapleNodes(p, 1); // vma_complete()'s store of the two halves
    }
  }

  /**
   * {@code stores} VMA-tree stores, each freeing the replaced maple node(s) with {@code
   * kfree_rcu()} into the CPU's rcu_free sheaf, which a full sheaf hands to {@code call_rcu()}
   * (mm/slub.c {@code __kfree_rcu_sheaf}, v6.18).
   */
  private void freeMapleNodes(KernelPath p, int stores) {
    int nodes = (int) Math.max(0, stores * ctx.param(MmapCosts.MAPLE_NODES_PER_STORE));
    int capacity = (int) Math.max(1, ctx.param(MmapCosts.RCU_SHEAF_CAPACITY));
    if (nodes == 0) {
      return;
    }
    p.add(
        Segment.cache(new StepSpec.CacheAction(RCU_SHEAF, true, nodes, capacity, capacity, 1)),
        Segment.callRcu(1, ctx.param(MmapCosts.RCU_FREE_SHEAF)));
  }

  /** One PMD of zero-page PTEs: the loop step, then the PTL span over them. */
  private KernelPath zeroZap(long ptes) {
    KernelPath z = new KernelPath().add(seg(ctx.param(ZAP_PMD_STEP), "NONE"));
    ptl(z, ptes * ctx.param(ZAP_ZERO_PTE), "COND_RESCHED");
    return z;
  }

  /**
   * The PMDs of anonymous pages: each page is gathered for freeing, and a full mmu_gather forces a
   * flush (unlock, tlb_flush_mmu, then the rest of the PMD). Returns the pages left gathered.
   */
  private long anonZap(KernelPath p, long fullPmds, long lastPtes) {
    long capacity = GATHER_BUNDLE + (long) GATHER_BATCHES * GATHER_BATCH;
    long gathered = 0;
    KernelPath whole = new KernelPath().add(seg(ctx.param(ZAP_PMD_STEP), "NONE"));
    ptl(whole, PTES_PER_PMD * ctx.param(ZAP_PER_PTE), "COND_RESCHED");
    for (long pmd = 0; pmd < fullPmds + (lastPtes > 0 ? 1 : 0); ) {
      long ptes = pmd < fullPmds ? PTES_PER_PMD : lastPtes;
      // whole PMDs that fit in the gather as it is: the same items each
      long fit = ptes == PTES_PER_PMD ? Math.min(fullPmds - pmd, (capacity - gathered) / ptes) : 0;
      if (fit > 0) {
        p.repeat(fit, whole);
        gathered += fit * ptes;
        pmd += fit;
        continue;
      }
      p.add(seg(ctx.param(ZAP_PMD_STEP), "NONE"));
      while (gathered + ptes > capacity) { // force_flush: unlock, tlb_flush_mmu, retry the rest
        long k = capacity - gathered;
        ptl(p, k * ctx.param(ZAP_PER_PTE), "NONE");
        flush(p, capacity);
        gathered = 0;
        ptes -= k;
      }
      ptl(p, ptes * ctx.param(ZAP_PER_PTE), "COND_RESCHED");
      gathered += ptes;
      pmd++;
    }
    return gathered;
  }

  /**
   * A PTE-lock span ({@code pte_offset_map_lock} ... {@code pte_unmap_unlock}), then {@code ends}.
   */
  private void ptl(KernelPath p, long ns, String ends) {
    p.add(PTL_LOCK, seg(ns, "NONE"), PTL_UNLOCK);
    if (!"NONE".equals(ends)) {
      p.add(seg(0, ends));
    }
  }

  /** tlb_flush_mmu: TLB flush (preemption off), then tlb_batch_pages_flush of {@code pages}. */
  private void flush(KernelPath p, long pages) {
    p.add(locked(ctx.param(TLB_FLUSH), false, "NONE"));
    if (pages == 0) {
      return;
    }
    p.then(freeChunk(Math.min(pages, GATHER_BUNDLE)));
    long rest = Math.max(0, pages - GATHER_BUNDLE);
    int batch = Math.min(GATHER_BATCH, FREE_CHUNK);
    p.repeat(rest / batch, freeChunk(batch));
    p.repeat(rest % batch > 0 ? 1 : 0, freeChunk(rest % batch));
  }

  /**
   * free_pages_and_swap_cache of one batch, then cond_resched: release_pages holds lru_lock (IRQs
   * off) over up to 32 folios, then the memcg uncharge, then free_unref_page_list holds pcp->lock
   * over up to 32 and, when the CPU's list passes its high mark, drains a batch to the zone under
   * zone->lock. No voluntary point inside the batch.
   */
  private KernelPath freeChunk(long c) {
    KernelPath p = new KernelPath();
    perLockBatch(
        p,
        c,
        b ->
            new KernelPath()
                .add(
                    lruDelTake,
                    seg(ctx.param(FREE_BATCH_LRU) + b * ctx.param(FREE_LRU), "NONE"),
                    LRU_UNLOCK));
    p.add(seg(ctx.param(FREE_BATCH_OTHER) + c * ctx.param(FREE_OTHER), "NONE"));
    perLockBatch(
        p,
        c,
        b -> {
          KernelPath q = new KernelPath().add(PCP_TAKE, seg(b * ctx.param(FREE_PCP), "NONE"));
          zoneBatch(q, true, (int) b);
          return q.add(PCP_UNLOCK);
        });
    return p.add(seg(0, "COND_RESCHED"));
  }

  /** {@code c} folios in lock holds of {@link #LOCK_BATCH} (SWAP_CLUSTER_MAX), the rest last. */
  private static void perLockBatch(
      KernelPath p, long c, java.util.function.LongFunction<KernelPath> hold) {
    p.repeat(c / LOCK_BATCH, hold.apply(LOCK_BATCH));
    p.repeat(c % LOCK_BATCH > 0 ? 1 : 0, hold.apply(c % LOCK_BATCH));
  }

  /**
   * A refill ({@code rmqueue_bulk}, a get of {@code pages}) or drain ({@code free_pcppages_bulk}, a
   * put) of this CPU's pcp list, with the v6.7 high auto-tuning ({@link StepSpec.AutoHigh}): when
   * due, the pages it moves under one zone->lock hold with IRQs off.
   */
  private void zoneBatch(KernelPath p, boolean put, int pages) {
    p.add(Segment.cache(pcp(put, pages)));
    p.add(zoneTake, zonePages, ZONE_UNLOCK);
  }

  private StepSpec.CacheAction pcp(boolean put, int pages) {
    return new StepSpec.CacheAction(PCP, put, pages, batch, high.highMin(), 3, autoHigh);
  }

  /** The CPU's pcp high bounds on this machine. */
  PcpHigh pcpHigh() {
    return high;
  }

  /**
   * The vmstat_update kworker's run on its CPU (refresh_cpu_vm_stats): the counter folding, then
   * decay_pcp_high, which drains the pages above the lowered high under pcp->lock and zone->lock.
   */
  StepSpec vmstatRefresh() {
    KernelPath p = new KernelPath().add(seg(ctx.param(VMSTAT_REFRESH), "COND_RESCHED"));
    p.add(
        Segment.cache(new StepSpec.CacheAction(PCP, true, 0, batch, high.highMin(), 5, autoHigh)));
    p.add(PCP_TAKE, zoneTake, zonePages, ZONE_UNLOCK, PCP_UNLOCK);
    return p.syscall();
  }

  /**
   * __get_user_pages over {@code n} pages: per page cond_resched() at the loop top, then a present
   * page's lookup (PTL briefly) or a fault on an absent one ({@code write}: anonymous page, else
   * the zero page). A fault on the first page of a PMD allocates its page table first ({@code
   * pte_alloc_one}, GFP_KERNEL); a one-page call (step 2) finds the table there for 511 of 512
   * pages and is given none.
   */
  void gup(KernelPath p, long n, Pages from, boolean write) {
    KernelPath page = new KernelPath().add(seg(ctx.param(GUP_STEP), "COND_RESCHED"));
    if (from == Pages.ZERO && write) { // FOLL_WRITE on a zero-page PTE: wp_page_copy
      anonFault(page, true);
      p.repeat(n, page);
      return;
    }
    if (from != Pages.ABSENT) {
      ptl(page, ctx.param(FOLLOW_PTE), "NONE");
      p.repeat(n, page);
      return;
    }
    fault(page, write);
    if (n == 1) {
      p.then(page);
      return;
    }
    KernelPath first =
        new KernelPath()
            .add(
                seg(ctx.param(GUP_STEP), "COND_RESCHED"),
                seg(ctx.param(PTE_ALLOC), "MIGHT_RESCHED"));
    fault(first, write);
    p.repeat(n / PTES_PER_PMD, new KernelPath().then(first).repeat(PTES_PER_PMD - 1, page));
    long last = n % PTES_PER_PMD;
    if (last > 0) {
      p.then(first).repeat(last - 1, page);
    }
  }

  /** The fault on an absent page: an anonymous page for a write, else the zero page. */
  private void fault(KernelPath p, boolean write) {
    if (write) {
      anonFault(p, false);
    } else {
      p.add(seg(ctx.param(ZERO_FAULT), "NONE"));
      ptl(p, ctx.param(ZERO_PTE), "NONE");
    }
  }

  /**
   * do_anonymous_page (or wp_page_copy over the zero page, {@code overZero}) for a write: folio
   * allocation (might_alloc = might_sleep; the pcp list under pcp->lock, refilled under zone->lock
   * when empty), clear_page, memcg charge, then the PTE under the page-table lock, where
   * folio_add_lru_vma puts the folio in the CPU's lru_add batch, which moves to the LRU under
   * lru_lock (IRQs off) when it is full.
   */
  void anonFault(KernelPath p, boolean overZero) {
    p.add(seg(ctx.param(FAULT_ANON), "MIGHT_RESCHED"), PCP_TAKE);
    zoneBatch(p, false, 1);
    p.add(seg(ctx.param(PCP_ALLOC), "NONE"), PCP_UNLOCK);
    p.add(seg(ctx.param(CLEAR_PAGE), "NONE"), PTL_LOCK);
    p.add(seg(ctx.param(PTE_INSTALL) + (overZero ? ctx.param(WP_FLUSH) : 0), "NONE"));
    lruAdd(p);
    p.add(PTL_UNLOCK);
  }

  /**
   * madvise({@code advice}) over {@code n} pages in {@code state} (v6.8 mm/madvise.c). VMA-flag
   * advices take mmap_lock for writing and update the VMA (madvise_update_vma), MADV_UNMERGEABLE
   * then walks every page (unmerge_ksm_pages, cond_resched per page: the region is VM_MERGEABLE
   * since V0.17.04 madvises it MERGEABLE). WILLNEED on anonymous memory walks the page tables for
   * swap entries (none). COLD moves every present folio into the CPU's lru_deactivate batch
   * (drained under lru_lock every 15); PAGEOUT isolates each present folio from the LRU under
   * lru_lock, then reclaim_pages tries it (no swap: it stays, activated) and puts it back through
   * the lru_add batch. Both scan a PMD's PTEs under the PTL and give need_resched a chance every 32
   * (SWAP_CLUSTER_MAX). POPULATE_READ/WRITE are GUP passes. The zero page is no folio to them.
   */
  StepSpec madvise(Advice advice, long n, Pages state) {
    return madvise(advice, n, state, 0);
  }

  /**
   * madvise as above on a range that a flag change splits off its VMA {@code splits} times
   * (vma_modify_flags: two splits for a page inside a VMA, one at its edge).
   */
  StepSpec madvise(Advice advice, long n, Pages state, int splits) {
    KernelPath p = new KernelPath();
    switch (advice) {
      case WILLNEED, COLD, PAGEOUT, POPULATE_READ, POPULATE_WRITE -> {
        boolean gup = advice == Advice.POPULATE_READ || advice == Advice.POPULATE_WRITE;
        long populate = gup ? ctx.param(POPULATE_ENTRY) : 0;
        p.add(MMAP_READ, seg(ctx.param(MADVISE_ENTRY) + populate, "NONE"));
        if (gup) {
          gup(p, n, state, advice == Advice.POPULATE_WRITE);
        } else if (state != Pages.ABSENT) {
          boolean folios = state == Pages.ANON && advice != Advice.WILLNEED;
          scan(p, n, folios ? advice : Advice.WILLNEED);
        }
      }
      default -> {
        p.add(MMAP_WRITE, seg(ctx.param(MADVISE_VMA), "MIGHT_RESCHED"));
        if (advice.changesFlags()) {
          splits(p, splits);
        }
        if (advice == Advice.UNMERGEABLE) {
          p.repeat(n, new KernelPath().add(seg(ctx.param(KSM_UNMERGE_STEP), "COND_RESCHED")));
        }
      }
    }
    return p.add(MMAP_UNLOCK).syscall();
  }

  /**
   * The PTE scan of {@code n} mapped pages, per PMD, in chunks of {@link #LOCK_BATCH} under the
   * PTL: a plain walk ({@code WILLNEED}, or zero-page PTEs), or COLD/PAGEOUT work per folio.
   */
  private void scan(KernelPath p, long n, Advice kind) {
    for (long left = n; left > 0; ) {
      long pmd = Math.min(left, PTES_PER_PMD);
      p.add(seg(ctx.param(ZAP_PMD_STEP), "NONE"));
      p.repeat(pmd / LOCK_BATCH, scanChunk(LOCK_BATCH, kind));
      p.repeat(pmd % LOCK_BATCH > 0 ? 1 : 0, scanChunk(pmd % LOCK_BATCH, kind));
      if (kind == Advice.PAGEOUT) { // reclaim_pages of the PMD's isolated folios, then putback
        KernelPath r = new KernelPath().add(seg(ctx.param(PAGEOUT_RECLAIM), "COND_RESCHED"));
        lruAdd(r);
        p.repeat(pmd, r);
      }
      left -= pmd;
    }
  }

  private KernelPath scanChunk(long ptes, Advice kind) {
    KernelPath c = new KernelPath().add(PTL_LOCK);
    if (kind == Advice.WILLNEED) {
      c.add(seg(ptes * ctx.param(MADVISE_WALK_PTE), "NONE"));
    } else {
      for (long i = 0; i < ptes; i++) { // written out: no loop inside a spinlock hold
        c.add(seg(ctx.param(MADVISE_COLD_PAGE), "NONE"));
        if (kind == Advice.COLD) { // folio_deactivate: the CPU's lru_deactivate batch
          c.add(Segment.cache(LRU_DEACTIVATE_FBATCH, true, 1, LRU_ADD_BATCH, LRU_ADD_BATCH, 3));
          c.add(lruAddTake, seg(LRU_ADD_BATCH * ctx.param(LRU_ADD), "NONE"), LRU_UNLOCK);
        } else { // folio_isolate_lru
          c.add(lruDelTake, seg(ctx.param(FREE_LRU), "NONE"), LRU_UNLOCK);
        }
      }
    }
    return c.add(PTL_UNLOCK, seg(0, "COND_RESCHED"));
  }

  /**
   * folio_add_lru: into the CPU's lru_add batch, which moves to the LRU under lru_lock when full.
   */
  private void lruAdd(KernelPath p) {
    p.add(Segment.cache(LRU_ADD_FBATCH, true, 1, LRU_ADD_BATCH, LRU_ADD_BATCH, 3));
    p.add(lruAddTake, seg(LRU_ADD_BATCH * ctx.param(LRU_ADD), "NONE"), LRU_UNLOCK);
  }

  /** madvise(MADV_POPULATE_READ) over {@code n} pages (stress_mincore_touch_pages). */
  StepSpec populateRead(long n, Pages state) {
    KernelPath p = new KernelPath();
    p.add(MMAP_READ); // mmap_read_lock (might_sleep)
    p.add(seg(ctx.param(MADVISE_ENTRY) + ctx.param(POPULATE_ENTRY), "NONE"));
    gup(p, n, state, false);
    return p.add(MMAP_UNLOCK).syscall();
  }

  /**
   * mmap() of {@code n} pages: the VMA under the mmap write lock, then, with {@code populate}
   * (MAP_POPULATE, MAP_LOCKED), __mm_populate under the read lock: write faults on every page.
   */
  StepSpec mmap(long n, boolean populate, boolean fixed) {
    KernelPath p = new KernelPath();
    p.add(MMAP_WRITE, seg(ctx.param(fixed ? MMAP_FIXED_VMA : MMAP_VMA), "MIGHT_RESCHED"));
    freeMapleNodes(p, 1); // the new VMA's store (vma_iter_store_new, or a merge's)
    p.add(MMAP_UNLOCK);
    if (populate) {
      p.add(MMAP_READ);
      gup(p, n, Pages.ABSENT, true);
      p.add(MMAP_UNLOCK);
    }
    return p.syscall();
  }

  /** A write from user space to one page: a fault unless the page is already anonymous. */
  StepSpec writeFault(Pages state) {
    KernelPath p = new KernelPath();
    p.add(MMAP_READ); // lock_vma_under_rcu / mmap_read_lock
    p.add(seg(ctx.param(FAULT_ENTRY), "NONE")); // exc_page_fault, VMA lookup, vmf_anon_prepare
    if (state == Pages.ABSENT) {
      p.add(seg(ctx.param(PTE_ALLOC), "MIGHT_RESCHED"));
    }
    anonFault(p, state == Pages.ZERO);
    return p.add(MMAP_UNLOCK).syscall();
  }

  /** mprotect over {@code n} pages: mprotect_fixup, then change_pte_range per PMD. */
  StepSpec mprotect(long n) {
    KernelPath p = new KernelPath();
    p.add(MMAP_WRITE, seg(ctx.param(MPROTECT_VMA), "MIGHT_RESCHED"));
    // change_pmd_range: cond_resched() after each PMD's PTL span
    p.repeat(n / PTES_PER_PMD, changePmd(PTES_PER_PMD));
    p.repeat(n % PTES_PER_PMD > 0 ? 1 : 0, changePmd(n % PTES_PER_PMD));
    return p.add(MMAP_UNLOCK).syscall();
  }

  private KernelPath changePmd(long ptes) {
    KernelPath p = new KernelPath().add(seg(ctx.param(ZAP_PMD_STEP), "NONE"));
    ptl(p, ptes * ctx.param(CHANGE_PTE), "COND_RESCHED");
    return p;
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
