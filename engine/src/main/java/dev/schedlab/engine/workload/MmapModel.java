package dev.schedlab.engine.workload;

import dev.schedlab.engine.scenario.Dist;
import dev.schedlab.engine.scenario.StepSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The stress-ng {@code --mmap} worker (stress-mmap.c, {@code stress_mmap_child()}) as the sequence
 * of syscalls it issues, each a kernel path of segments tied to the kernel function they stand for.
 * Source read: ColinIanKing/stress-ng stress-mmap.c @22a7c1de145e82012c5f4f1467e3637babd3a293 and
 * core-mincore.c @10d6a0e7007080bf2d5f2bf7759f2b73c407ee86 (the 2024 release could not be read;
 * the 2020 file @01afb213 has the same mmap flags, MAP_POPULATE default and retry logic). One
 * attempt with default options over {@code P = sz / 4096} pages:
 *
 * <ol>
 *   <li>{@code mmap(sz, PRIVATE|ANONYMOUS|POPULATE|rnd_flag)}, {@code rnd_flag} drawn from
 *       {@code mmap_flags[]} (14 entries on x86-64 Linux). MAP_HUGETLB / MAP_HUGE_2MB / MAP_HUGE_1GB
 *       fail with no hugepages reserved; the first failure clears MAP_POPULATE for the rest of the
 *       run ({@code context->flags &= ~MAP_POPULATE}); a second failure in a row sleeps 100 ms
 *       ({@code no_mem_retries > 1}). MAP_NONBLOCK skips the populate (do_mmap), MAP_LOCKED always
 *       populates (VM_LOCKED, FOLL_WRITE). Populate = {@code __mm_populate -> __get_user_pages}:
 *       per page {@code cond_resched()}, a write fault (page allocation = might_sleep, clear_page,
 *       PTE install under the PTL).
 *   <li>{@code stress_mincore_touch_pages(buf, sz)} = {@code madvise(MADV_POPULATE_READ)}: GUP per
 *       page with {@code cond_resched()}; absent pages get the shared zero page (read fault).
 *   <li>the index loops and shuffles in user space; {@code stress_mincore_touch_pages} again.
 *   <li>{@code stress_mmap_fast_munmap}: all pages are contiguous, so one {@code munmap(sz)}:
 *       {@code unmap_vmas -> zap_pmd_range}: per PMD the PTL held over its 512 PTEs
 *       ({@code zap_pte_range}), {@code cond_resched()} per PMD; {@code tlb_finish_mmu}: TLB flush,
 *       then {@code tlb_batch_pages_flush} frees the gathered pages 512 at a time with
 *       {@code cond_resched()} between (lruvec lock with IRQs off and the pcp lock per 32 folios).
 *       Then {@code munmap(buf, sz)} again on the now empty range.
 *   <li>step 2: per page, {@code mmap(MAP_FIXED or MAP_FIXED_NOREPLACE | context->flags)} of one
 *       page (populated while MAP_POPULATE is still set) and {@code madvise(MADV_POPULATE_READ)} of
 *       it; each a syscall returning to user.
 *   <li>step 3: fast munmap of the (contiguous) region again; steps 4-10: invalid munmap/mmap
 *       calls and a few one-page mmap/mprotect/munmap, with two one-page write faults.
 * </ol>
 *
 * {@code --mmap-mprotect} adds the 11 mprotect calls (6 invalid, 5 over the range:
 * change_protection with the PTL per PMD and {@code cond_resched()} per PMD) on the region and per
 * page in steps 1 and 2; {@code --mmap-slow-munmap} unmaps page by page. Costs are for an
 * uncontended machine (no zone->lock / lru_lock waiting is modelled).
 */
final class MmapModel {
  /** stress-ng's DEFAULT_MMAP_BYTES (256 MB), shared by the instances. */
  static final long DEFAULT_BYTES = 256L << 20;

  static final ToolParam PAGE_SIZE = ToolParam.num("mmap_page_size", 4096, "bytes",
      "[src] x86-64/arm64 4K base pages", "page size");
  static final ToolParam SPREAD = ToolParam.num("mmap_cost_spread", 50, "percent",
      "[estimate] per-op costs vary with cache state; each segment draws uniform mean*(1 +- spread)",
      "spread of every mmap cost below (task's own random stream)");
  static final ToolParam MMAP_VMA = ToolParam.ns("mmap_vma", 1_000,
      "[estimate] do_mmap/mmap_region for a new anonymous VMA: mmap_write_lock_killable, "
          + "get_unmapped_area, vm_area_alloc, maple-tree store, perf_event_mmap (~1 us order)",
      "mmap(): VMA set-up (ends at a might_sleep point)");
  static final ToolParam MMAP_FIXED_VMA = ToolParam.ns("mmap_fixed_vma", 1_500,
      "[estimate] MAP_FIXED one-page mmap: do_vmi_munmap of the (empty) target, vma_merge/expand "
          + "with the neighbour under anon_vma lock, perf_event_mmap",
      "step-2 per-page mmap(): VMA part");
  static final ToolParam MMAP_FAIL = ToolParam.ns("mmap_hugetlb_fail", 1_500,
      "[estimate] hugetlb_file_setup then hugetlb_reserve_pages failing (no pool): -ENOMEM",
      "mmap(MAP_HUGETLB) failing");
  static final ToolParam MUNMAP_VMA = ToolParam.ns("munmap_vma", 1_000,
      "[estimate] mmap_write_lock_killable, VMA detach (vms_gather_munmap_vmas), lock downgrade",
      "munmap(): VMA part before the zap");
  static final ToolParam MUNMAP_TAIL = ToolParam.ns("munmap_tail", 500,
      "[estimate] remove_vma, vm_area_free, mmap_read_unlock", "munmap(): after the pages are freed");
  static final ToolParam MUNMAP_EMPTY = ToolParam.ns("munmap_empty", 300,
      "[estimate] munmap of a range with no VMA: lock, maple-tree lookup, unlock",
      "munmap() of an unmapped range");
  static final ToolParam MADVISE_ENTRY = ToolParam.ns("madvise_entry", 300,
      "[estimate] madvise: mmap_read_lock, madvise_populate set-up", "madvise(MADV_POPULATE_READ) entry");
  static final ToolParam GUP_STEP = ToolParam.ns("gup_step", 60,
      "[estimate] __get_user_pages loop body around follow_page_mask (loop top has cond_resched)",
      "GUP per page, preemptible part");
  static final ToolParam FOLLOW_PTE = ToolParam.ns("follow_pte", 40,
      "[estimate] follow_page_pte: pte_offset_map_lock, check, unlock", "GUP per present page, PTL held");
  static final ToolParam FAULT_ANON = ToolParam.ns("fault_anon", 400,
      "[estimate] handle_mm_fault -> do_anonymous_page write: folio alloc (might_alloc = might_sleep), "
          + "mem_cgroup_charge",
      "write fault: preemptible part before clear_page");
  static final ToolParam CLEAR_PAGE = ToolParam.ns("clear_page", 500,
      "[estimate] clear_page_erms 4 KiB at ~8-16 GB/s: 0.25-0.5 us (brief: 0.3-1 us)",
      "write fault: clear_user_highpage()");
  static final ToolParam PTE_INSTALL = ToolParam.ns("pte_install", 150,
      "[estimate] set_pte_at, folio_add_new_anon_rmap, folio_add_lru_vma, update_mmu_cache",
      "write fault: PTL held");
  static final ToolParam ZERO_FAULT = ToolParam.ns("zero_fault", 200,
      "[estimate] handle_mm_fault -> do_anonymous_page read: zero-page pfn, no allocation",
      "read fault: preemptible part");
  static final ToolParam ZERO_PTE = ToolParam.ns("zero_pte", 60,
      "[estimate] set_pte_at of the zero page", "read fault: PTL held");
  static final ToolParam PTE_ALLOC = ToolParam.ns("pte_alloc", 500,
      "[estimate] __pte_alloc: GFP_KERNEL page-table page (might_sleep) + clear",
      "first fault in a PMD after the tables were freed");
  static final ToolParam ZAP_PER_PTE = ToolParam.ns("zap_per_pte", 25,
      "[estimate] zap_pte_range per anon PTE: ptep_get_and_clear_full, folio_remove_rmap_pte, "
          + "__tlb_remove_page, rss",
      "munmap: per present page, PTL held (512 per PMD)");
  static final ToolParam ZAP_ZERO_PTE = ToolParam.ns("zap_zero_pte", 8,
      "[estimate] zap_pte_range per zero-page PTE (vm_normal_page NULL: no rmap, not gathered)",
      "munmap: per zero-page PTE, PTL held");
  static final ToolParam ZAP_PMD_STEP = ToolParam.ns("zap_pmd_step", 50,
      "[estimate] zap_pmd_range loop after pte_unmap_unlock", "munmap: per PMD, before cond_resched");
  static final ToolParam TLB_FLUSH = ToolParam.ns("tlb_flush", 300,
      "[src] arch/x86/mm/tlb.c: > tlb_single_page_flush_ceiling (33) pages -> full local flush, no IPI "
          + "(single-threaded mm); cost [estimate]",
      "tlb_finish_mmu: TLB flush, preemption off");
  static final ToolParam FREE_LRU = ToolParam.ns("free_lru", 25,
      "[estimate] folios_put_refs: lruvec_del_folio under lruvec->lru_lock (IRQs off)",
      "page freeing: per page under the lru lock");
  static final ToolParam FREE_PCP = ToolParam.ns("free_pcp", 40,
      "[estimate] free_unref_folios: pcp list add under pcp->lock (preemption off)",
      "page freeing: per page under the pcp lock");
  static final ToolParam FREE_OTHER = ToolParam.ns("free_other", 35,
      "[estimate] refcount drop, memcg uncharge batch (total free 100 ns/page, brief: 50-150)",
      "page freeing: per page, preemptible");
  static final ToolParam FREE_PGTABLES = ToolParam.ns("free_pgtables", 100,
      "[estimate] free_pgtables per PTE-table page (tlb_remove_table)", "munmap: per PMD");
  static final ToolParam MPROTECT_VMA = ToolParam.ns("mprotect_vma", 800,
      "[estimate] mprotect_fixup: mmap_write_lock, VMA split/merge", "mprotect(): VMA part");
  static final ToolParam CHANGE_PTE = ToolParam.ns("change_pte", 10,
      "[estimate] change_pte_range per present PTE", "mprotect: per page, PTL held");
  static final ToolParam SMALL_SYSCALL = ToolParam.ns("small_syscall", 500,
      "[estimate] an invalid or zero-length mmap/munmap/mprotect rejected early",
      "the invalid calls of steps 4-10 and --mmap-mprotect");
  static final ToolParam USER_SYSCALL = ToolParam.ns("user_per_syscall", 50,
      "[estimate] libc wrapper, loop and bookkeeping between two syscalls",
      "user time before each syscall");
  static final ToolParam USER_PER_PAGE = ToolParam.ns("user_per_page", 10,
      "[estimate] index init/shuffle (stress_mwc32modn) and mapped[] checks, per page and pass",
      "user-space loops over the page arrays");
  static final ToolParam NO_MEM_SLEEP = ToolParam.ns("no_mem_sleep", 100_000_000,
      "[src] stress-mmap.c: shim_usleep(100000) when no_mem_retries > 1",
      "sleep after a second mmap failure in a row");
  static final ToolParam GATHER_MAX = ToolParam.num("mmu_gather_max", 10_000, "count",
      "[src] mm/mmu_gather.c MAX_GATHER_BATCH_COUNT = 10000 / MAX_GATHER_BATCH: pages gathered "
          + "before a forced flush",
      "pages per mmu_gather flush");
  static final ToolParam STEADY_ATTEMPTS = ToolParam.num("mmap_attempts_drawn", 32, "count",
      "[estimate] how many random mmap_flags draws are laid out after MAP_POPULATE is dropped "
          + "(the program then repeats them)",
      "length of the drawn flag sequence");

  static final List<ToolParam> PARAMS = List.of(PAGE_SIZE, SPREAD, MMAP_VMA, MMAP_FIXED_VMA,
      MMAP_FAIL, MUNMAP_VMA, MUNMAP_TAIL, MUNMAP_EMPTY, MADVISE_ENTRY, GUP_STEP, FOLLOW_PTE,
      FAULT_ANON, CLEAR_PAGE, PTE_INSTALL, ZERO_FAULT, ZERO_PTE, PTE_ALLOC, ZAP_PER_PTE,
      ZAP_ZERO_PTE, ZAP_PMD_STEP, TLB_FLUSH, FREE_LRU, FREE_PCP, FREE_OTHER, FREE_PGTABLES,
      MPROTECT_VMA, CHANGE_PTE, SMALL_SYSCALL, USER_SYSCALL, USER_PER_PAGE, NO_MEM_SLEEP,
      GATHER_MAX, STEADY_ATTEMPTS);

  /** [src] PTRS_PER_PTE on x86-64 with 4K pages: zap_pmd_range's cond_resched spacing. */
  static final int PTES_PER_PMD = 512;
  /** [src] mm/mmu_gather.c MAX_NR_FOLIOS_PER_FREE / min(512U, batch->nr): cond_resched spacing. */
  static final int FREE_CHUNK = 512;
  /** [src] SWAP_CLUSTER_MAX-sized lock batches in the folio freeing path. */
  static final int LOCK_BATCH = 32;
  /** [src] mmap_flags[] on x86-64 Linux/glibc: HUGE_2MB|HUGETLB, HUGE_1GB|HUGETLB, HUGETLB, NONBLOCK,
   * GROWSDOWN, LOCKED, 32BIT, NORESERVE, STACK, EXECUTABLE, UNINITIALIZED, DENYWRITE, SYNC, 0. */
  static final int N_FLAGS = 14;
  static final int HUGETLB_FLAGS = 3;
  static final int FLAG_NONBLOCK = 3;
  static final int FLAG_LOCKED = 5;
  /** Steps 4-10: 2 munmap_force, 7 x 3 invalid mmaps, 2 invalid munmaps, 4 one-page mmap/munmap
   * pairs and 2 mprotects [src stress-mmap.c @22a7c1de]. */
  static final int MISC_SYSCALLS = 2 + 21 + 2 + 8 + 2;

  /** Page-table state of the region, which decides the per-page kernel work. */
  enum Pages { ABSENT, ZERO, ANON }

  record Options(boolean mprotect, boolean slowMunmap) {}

  private final ToolContext ctx;
  private final long pages;
  private final Options opt;
  private final int spread;

  private MmapModel(ToolContext ctx, long bytes, Options opt) {
    this.ctx = ctx;
    this.pages = Math.max(1, bytes / ctx.param(PAGE_SIZE));
    this.opt = opt;
    this.spread = (int) Math.max(0, Math.min(100, ctx.param(SPREAD)));
  }

  /**
   * The worker's program. {@code seed} seeds the draws of {@code mmap_flags[]} (stress-ng's mwc);
   * the generator has no access to the scenario seed, so the sequence is fixed per worker.
   */
  static List<StepSpec> program(ToolContext ctx, long bytes, Options opt, long seed) {
    return new MmapModel(ctx, bytes, opt).build(new SplittableRandom(seed));
  }

  static MmapModel forTest(ToolContext ctx, long bytes, Options opt) {
    return new MmapModel(ctx, bytes, opt);
  }

  private List<StepSpec> build(SplittableRandom rnd) {
    List<StepSpec> prog = new ArrayList<>();
    boolean populate = true;
    int retries = 0;
    // Attempts while MAP_POPULATE is still set (the first hugetlb failure clears it).
    List<StepSpec> steady = new ArrayList<>();
    int drawn = 0;
    int steadyMax = (int) Math.max(1, ctx.param(STEADY_ATTEMPTS));
    int run = 0; // pending identical plain non-populated iterations (emitted as one loop)
    while (drawn < steadyMax) {
      int flag = rnd.nextInt(N_FLAGS);
      List<StepSpec> out = populate ? prog : steady;
      if (flag < HUGETLB_FLAGS) {
        if (!populate) {
          run = flush(out, run);
        }
        out.add(Tasks.user(ctx.param(USER_SYSCALL)));
        out.add(Tasks.kernel(seg(MMAP_FAIL, "MIGHT_RESCHED")));
        if (populate) {
          populate = false; // context->flags &= ~MAP_POPULATE; no_mem_retries++; continue
          retries++;
          continue;
        }
        retries++;
        if (retries > 1) {
          steady.add(new StepSpec.Sleep(Dist.fixed(ctx.param(NO_MEM_SLEEP))));
        }
        drawn++;
        continue;
      }
      retries = 0;
      boolean pop = (populate && flag != FLAG_NONBLOCK) || flag == FLAG_LOCKED;
      if (populate) {
        prog.addAll(iteration(pop, true));
      } else if (pop) {
        run = flush(steady, run);
        steady.addAll(iteration(true, false));
        drawn++;
      } else {
        run++;
        drawn++;
      }
    }
    flush(steady, run);
    prog.add(new StepSpec.Loop(Integer.MAX_VALUE, steady));
    return prog;
  }

  private int flush(List<StepSpec> out, int run) {
    if (run > 0) {
      out.addAll(Tasks.repeat(run, iteration(false, false)));
    }
    return 0;
  }

  /**
   * One successful attempt. {@code pop}: the region mmap populates (MAP_POPULATE or MAP_LOCKED);
   * {@code fixedPop}: the step-2 one-page mmaps carry MAP_POPULATE.
   */
  List<StepSpec> iteration(boolean pop, boolean fixedPop) {
    List<StepSpec> it = new ArrayList<>();
    long up = ctx.param(USER_SYSCALL);
    // mmap of the region (do_mmap, then __mm_populate when populating)
    List<StepSpec.Segment> mmap = new ArrayList<>();
    mmap.add(seg(MMAP_VMA, "MIGHT_RESCHED"));
    if (pop) {
      gup(mmap, pages, Pages.ANON, Pages.ABSENT);
    }
    it.add(Tasks.user(up));
    it.add(new StepSpec.Kernel(mmap));
    Pages state = pop ? Pages.ANON : Pages.ABSENT;
    // stress_mincore_touch_pages(buf, sz): madvise(MADV_POPULATE_READ)
    it.add(Tasks.user(up));
    it.add(populateRead(pages, state));
    state = state == Pages.ABSENT ? Pages.ZERO : state;
    if (opt.mprotect()) {
      it.addAll(mprotect(pages, state));
    }
    it.add(userPages(pages)); // mapped[] / mappings[] init
    it.add(Tasks.user(up));
    it.add(populateRead(pages, state));
    it.add(userPages(2 * pages)); // idx init + shuffle
    if (opt.mprotect()) {
      it.addAll(Tasks.repeat(pages, mprotect(1, state)));
    } else {
      it.add(userPages(pages)); // step-1 loop with nothing to do per page
    }
    it.addAll(munmapAll(state));
    it.add(Tasks.user(up));
    it.add(Tasks.kernel(seg(MUNMAP_EMPTY, "MIGHT_RESCHED"))); // stress_munmap_force(buf, sz)
    // step 2: map every page back (MAP_FIXED or MAP_FIXED_NOREPLACE, same kernel work)
    it.add(userPages(pages)); // shuffle
    Pages fixedState = fixedPop ? Pages.ANON : Pages.ZERO;
    List<StepSpec> remap = new ArrayList<>();
    List<StepSpec.Segment> fixed = new ArrayList<>();
    fixed.add(seg(MMAP_FIXED_VMA, "MIGHT_RESCHED"));
    if (fixedPop) {
      gup(fixed, 1, Pages.ANON, Pages.ABSENT); // __mm_populate of the one page
    }
    remap.add(Tasks.user(up));
    remap.add(new StepSpec.Kernel(fixed));
    remap.add(Tasks.user(up));
    remap.add(populateRead(1, fixedPop ? Pages.ANON : Pages.ABSENT));
    if (opt.mprotect()) {
      remap.addAll(mprotect(1, fixedState));
    }
    it.addAll(Tasks.repeat(pages, remap));
    // step 3: unmap them all (contiguous again)
    it.addAll(munmapAll(fixedState));
    // steps 4-10
    it.addAll(Tasks.repeat(MISC_SYSCALLS, List.of(Tasks.user(up),
        Tasks.kernel(seg(SMALL_SYSCALL, "MIGHT_RESCHED")))));
    List<StepSpec.Segment> wf = new ArrayList<>();
    fault(wf, Pages.ANON);
    it.addAll(Tasks.repeat(2, List.of(Tasks.user(up), new StepSpec.Kernel(wf))));
    return it;
  }

  /** munmap of the whole region (fast munmap) or page by page (--mmap-slow-munmap). */
  private List<StepSpec> munmapAll(Pages state) {
    long up = ctx.param(USER_SYSCALL);
    if (opt.slowMunmap()) {
      return Tasks.repeat(pages, List.of(Tasks.user(up), munmap(1, state)));
    }
    return List.of(Tasks.user(up), munmap(pages, state));
  }

  /** munmap(n pages): VMA detach, zap per PMD (PTL held, cond_resched), flush, free, tables. */
  StepSpec munmap(long n, Pages state) {
    List<StepSpec.Segment> s = new ArrayList<>();
    s.add(seg(MUNMAP_VMA, "MIGHT_RESCHED"));
    long gather = Math.max(FREE_CHUNK, ctx.param(GATHER_MAX));
    for (long done = 0; done < n; ) {
      long group = state == Pages.ANON ? Math.min(gather, n - done) : n - done;
      for (long left = group; left > 0; left -= PTES_PER_PMD) {
        long c = Math.min(left, PTES_PER_PMD);
        s.add(locked(c * ctx.param(state == Pages.ANON ? ZAP_PER_PTE : ZAP_ZERO_PTE), false));
        s.add(seg(ZAP_PMD_STEP, "COND_RESCHED"));
      }
      s.add(locked(ctx.param(TLB_FLUSH), false));
      if (state == Pages.ANON) {
        for (long left = group; left > 0; left -= FREE_CHUNK) {
          long chunk = Math.min(left, FREE_CHUNK);
          for (long b = chunk; b > 0; b -= LOCK_BATCH) {
            long k = Math.min(b, LOCK_BATCH);
            s.add(locked(k * ctx.param(FREE_LRU), true));
            s.add(locked(k * ctx.param(FREE_PCP), false));
            s.add(seg(k * ctx.param(FREE_OTHER), b <= LOCK_BATCH ? "COND_RESCHED" : "NONE"));
          }
        }
      }
      done += group;
    }
    long pmds = (n + PTES_PER_PMD - 1) / PTES_PER_PMD;
    s.add(seg(pmds * ctx.param(FREE_PGTABLES) + ctx.param(MUNMAP_TAIL), "NONE"));
    return new StepSpec.Kernel(s);
  }

  /** madvise(MADV_POPULATE_READ) over n pages in state {@code state}. */
  private StepSpec populateRead(long n, Pages state) {
    List<StepSpec.Segment> s = new ArrayList<>();
    s.add(seg(MADVISE_ENTRY, "MIGHT_RESCHED"));
    gup(s, n, state == Pages.ABSENT ? Pages.ZERO : state, state);
    return new StepSpec.Kernel(s);
  }

  /**
   * __get_user_pages over n pages: per page cond_resched (loop top), then a lookup of a present
   * page or a fault ({@code to}) on an absent one.
   */
  private void gup(List<StepSpec.Segment> s, long n, Pages to, Pages from) {
    for (long i = 0; i < n; i++) {
      if (from == Pages.ABSENT) {
        if (i % PTES_PER_PMD == 0 && n > 1) {
          s.add(seg(PTE_ALLOC, "MIGHT_RESCHED"));
        }
        fault(s, to);
      } else {
        s.add(locked(ctx.param(FOLLOW_PTE), false));
      }
      s.add(seg(GUP_STEP, "COND_RESCHED"));
    }
  }

  /** One fault: write (alloc = might_sleep, clear_page, PTE install) or read (zero page). */
  private void fault(List<StepSpec.Segment> s, Pages to) {
    if (to == Pages.ANON) {
      s.add(seg(FAULT_ANON, "MIGHT_RESCHED"));
      s.add(seg(CLEAR_PAGE, "NONE"));
      s.add(locked(ctx.param(PTE_INSTALL), false));
    } else {
      s.add(seg(ZERO_FAULT, "NONE"));
      s.add(locked(ctx.param(ZERO_PTE), false));
    }
  }

  /** stress_mmap_mprotect(): 6 invalid or zero-length calls, then 5 over the range. */
  private List<StepSpec> mprotect(long n, Pages state) {
    long up = ctx.param(USER_SYSCALL);
    List<StepSpec> out = new ArrayList<>(Tasks.repeat(6, List.of(Tasks.user(up),
        Tasks.kernel(seg(SMALL_SYSCALL, "MIGHT_RESCHED")))));
    List<StepSpec.Segment> s = new ArrayList<>();
    s.add(seg(MPROTECT_VMA, "MIGHT_RESCHED"));
    for (long left = n; left > 0; left -= PTES_PER_PMD) {
      long c = Math.min(left, PTES_PER_PMD);
      s.add(locked(c * ctx.param(CHANGE_PTE), false));
      s.add(seg(ZAP_PMD_STEP, "COND_RESCHED")); // change_pmd_range: cond_resched per PMD
    }
    out.addAll(Tasks.repeat(5, List.of(Tasks.user(up), new StepSpec.Kernel(s))));
    return out;
  }

  private StepSpec userPages(long n) {
    return new StepSpec.User(dist(n * ctx.param(USER_PER_PAGE)));
  }

  private StepSpec.Segment seg(ToolParam p, String ends) {
    return seg(ctx.param(p), ends);
  }

  private StepSpec.Segment seg(long meanNs, String ends) {
    return new StepSpec.Segment(dist(meanNs), true, false, ends);
  }

  /** A preempt-disabled span (spinlock held); with {@code irqsOff} also IRQs disabled. */
  private StepSpec.Segment locked(long meanNs, boolean irqsOff) {
    return new StepSpec.Segment(dist(meanNs), false, irqsOff, "NONE");
  }

  private Dist dist(long meanNs) {
    long d = meanNs * spread / 100;
    return d == 0 ? Dist.fixed(meanNs) : Dist.uniform(meanNs - d, meanNs + d);
  }
}
