package dev.schedlab.lab.workload;

import java.util.List;

/**
 * The per-operation costs of the stress-ng {@code --mmap} model ({@link MmapPaths}), one named
 * parameter each, for an x86-64 machine with 4 KiB pages. A cost under a lock is the hold time of
 * an uncontended holder; the waits for {@code zone->lock}, {@code lruvec->lru_lock} and the others
 * come from the engine's locks (core/Locks), not from these numbers.
 */
final class MmapCosts {
  private MmapCosts() {}

  /**
   * The source of the costs measured on the project's machine with host/src/main/c/mmap-paths.c: a
   * path's p50 less the p50 of a bare getppid() (0.17 us), split over its segments by a perf
   * profile of the same run where it has several.
   */
  private static final String MEASURED =
      "[measured] Linux 6.18, 2-vCPU KVM guest (AMD EPYC), mmap-paths p50 less getppid's "
          + "(docs/workloads.md, Measured on the project's machine): ";

  static final ToolParam PAGE_SIZE =
      ToolParam.num(
          "mmap_page_size", 4096, "bytes", "[src] x86-64/arm64 4K base pages", "page size");
  static final ToolParam SPREAD =
      ToolParam.num(
          "mmap_cost_spread",
          50,
          "percent",
          "[estimate] per-op costs vary with cache state; each segment draws uniform mean*(1 +- spread)",
          "spread of every mmap cost below (task's own random stream)");
  static final ToolParam MMAP_VMA =
      ToolParam.ns(
          "mmap_vma",
          9_300,
          MEASURED
              + "region mmap (no populate) right after step 3, p50 9.2-10.1 us: 9.3 us; an isolated 4 MB mmap takes 1.6 us",
          "mmap(): VMA set-up (ends at a might_sleep point)");
  static final ToolParam MMAP_FIXED_VMA =
      ToolParam.ns(
          "mmap_fixed_vma",
          1_800,
          MEASURED + "one-page mmap(MAP_FIXED[_NOREPLACE]) of step 2, p50 1.92-2.09 us: 1.8 us",
          "step-2 per-page mmap(): VMA part");
  static final ToolParam MMAP_FAIL =
      ToolParam.ns(
          "mmap_hugetlb_fail",
          1_500,
          "[estimate] hugetlb_file_setup then hugetlb_reserve_pages failing (no pool): -ENOMEM",
          "mmap(MAP_HUGETLB) failing");
  static final ToolParam MUNMAP_VMA =
      ToolParam.ns(
          "munmap_vma",
          1_120,
          MEASURED
              + "one-page munmap with no neighbour page mapped, p50 3.61-3.72 us (3.48 us of path), of which mmap_write_lock, vms_gather_munmap_vmas and the detach tree's mas_store_gfp are 32 % in the profile",
          "munmap(): VMA part before the zap");
  static final ToolParam MUNMAP_TAIL =
      ToolParam.ns(
          "munmap_tail",
          350,
          MEASURED
              + "10 % of the one-page munmap (3.48 us): remove_vma, vm_area_free (kmem_cache_free), mmap_read_unlock",
          "munmap(): after the pages are freed");
  static final ToolParam MUNMAP_EMPTY =
      ToolParam.ns(
          "munmap_empty",
          190,
          MEASURED + "munmap of the emptied region, p50 0.35-0.37 us",
          "munmap() of an unmapped range");
  static final ToolParam VMA_SPLIT =
      ToolParam.ns(
          "vma_split",
          450,
          MEASURED
              + "one-page munmap with one / two neighbour pages mapped, p50 +0.43 / +0.95 us over "
              + "none: __split_vma (vm_area_dup, anon_vma_clone, mas_preallocate, vma_complete)",
          "munmap() or a VMA-flag madvise() of part of a VMA: per split (ends at the next "
              + "GFP_KERNEL allocation, a might_sleep point)");
  static final ToolParam POPULATE_ENTRY =
      ToolParam.ns(
          "populate_entry",
          560,
          MEASURED
              + "MADV_POPULATE_READ of one present page, p50 1.37-1.50 us, less madvise_entry and "
              + "170 ns of GUP: faultin_page_range set-up, whose lru_add_drain is 20 % in the profile",
          "madvise(MADV_POPULATE_READ/WRITE): set-up after madvise_entry");
  static final ToolParam FAULT_ENTRY =
      ToolParam.ns(
          "fault_entry",
          610,
          MEASURED
              + "of the 2.33 us user write fault, the exception entry, lock_vma_under_rcu and the "
              + "access checks 15 %, __vmf_anon_prepare 11 %",
          "a fault from user space: entry and VMA lookup before handle_mm_fault's work");
  static final ToolParam FREE_BATCH_LRU =
      ToolParam.ns(
          "free_batch_lru",
          255,
          MEASURED
              + "folios_put_refs of a one-page munmap is 22 % of its 3.48 us (770 ns), 36 % of that "
              + "with IRQs off under lru_lock (280 ns, less free_lru): the lruvec's and the folio's "
              + "LRU neighbours' lines; munmap of 1024 populated pages costs 203-330 ns per page",
          "release_pages: per lru_lock hold, on top of free_lru per folio");
  static final ToolParam FREE_BATCH_OTHER =
      ToolParam.ns(
          "free_batch_other",
          415,
          MEASURED
              + "of the 770 ns folios_put_refs of one folio, the memcg uncharge (28 %), "
              + "free_unref_folios (26 %) and the rest, less free_other and free_pcp per page",
          "page freeing: per batch, preemptible (memcg uncharge_batch, free_unref_folios set-up)");
  static final ToolParam MADVISE_ENTRY =
      ToolParam.ns(
          "madvise_entry",
          440,
          MEASURED
              + "madvise(MADV_WILLNEED) of one anonymous page, p50 1.10 us, less zap_pmd_step and the walk: mmap_read_lock, the VMA lookup",
          "madvise(MADV_POPULATE_READ) entry");
  static final ToolParam GUP_STEP =
      ToolParam.ns(
          "gup_step",
          88,
          MEASURED
              + "MADV_POPULATE_READ of the 1024-page region over absent PTEs, p50 452-504 us: 470 ns per page for gup_step + zero_fault + zero_pte (320 ns before), each scaled by 470/320",
          "GUP per page, preemptible part");
  static final ToolParam FOLLOW_PTE =
      ToolParam.ns(
          "follow_pte",
          82,
          MEASURED
              + "MADV_POPULATE_READ of the region over present pages, p50 170-200 us: 170 ns per page, less gup_step",
          "GUP per present page, PTL held");
  static final ToolParam FAULT_ANON =
      ToolParam.ns(
          "fault_anon",
          830,
          MEASURED
              + "a user write over a zero-page PTE, p50 2.45-2.54 us (2.33 us of path); in the profile the folio allocation outside clear_page and the pcp list 18 %, the memcg charge 9 %, counters and the swap-rate throttle 9 %",
          "write fault: preemptible part before clear_page");
  static final ToolParam CLEAR_PAGE =
      ToolParam.ns(
          "clear_page",
          350,
          MEASURED + "clear_page_erms, 15 % of the 2.33 us write fault",
          "write fault: clear_user_highpage()");
  static final ToolParam PTE_INSTALL =
      ToolParam.ns(
          "pte_install",
          350,
          MEASURED
              + "wp_page_copy under the PTL: folio_add_new_anon_rmap, set_pte, the folio batch add, 15 % of the 2.33 us write fault",
          "write fault: PTL held");
  static final ToolParam LRU_ADD =
      ToolParam.ns(
          "lru_add",
          30,
          "[estimate] folio_batch_move_lru: lruvec_add_folio per folio under lru_lock (IRQs off)",
          "write fault: per folio when the per-CPU lru_add batch (15) drains");
  static final ToolParam WP_FLUSH =
      ToolParam.ns(
          "wp_flush",
          150,
          MEASURED
              + "ptep_clear_flush of the zero-page PTE, 6 % of the 2.33 us write fault (146 ns)",
          "write fault on a zero-page PTE: extra time under the PTL");
  static final ToolParam ZERO_FAULT =
      ToolParam.ns(
          "zero_fault",
          294,
          MEASURED + "as gup_step: 200 ns x 470/320",
          "read fault: preemptible part");
  static final ToolParam ZERO_PTE =
      ToolParam.ns(
          "zero_pte", 88, MEASURED + "as gup_step: 60 ns x 470/320", "read fault: PTL held");
  static final ToolParam PTE_ALLOC =
      ToolParam.ns(
          "pte_alloc",
          500,
          "[estimate] __pte_alloc: GFP_KERNEL page-table page (might_sleep) + clear",
          "first fault in a PMD after the tables were freed");
  static final ToolParam ZAP_PER_PTE =
      ToolParam.ns(
          "zap_per_pte",
          25,
          "[estimate] zap_pte_range per anon PTE: ptep_get_and_clear_full, folio_remove_rmap_pte, "
              + "__tlb_remove_page, rss",
          "munmap: per present page, PTL held (512 per PMD)");
  static final ToolParam ZAP_ZERO_PTE =
      ToolParam.ns(
          "zap_zero_pte",
          8,
          "[estimate] zap_pte_range per zero-page PTE (vm_normal_page NULL: no rmap, not gathered)",
          "munmap: per zero-page PTE, PTL held");
  static final ToolParam ZAP_PMD_STEP =
      ToolParam.ns(
          "zap_pmd_step",
          490,
          MEASURED
              + "unmap_vmas of a one-page munmap, 15 % of its 3.48 us: the walk down to the PMD, the mmu notifier, pte_offset_map_lock; once per PMD (and per madvise page walk)",
          "munmap: per PMD, before the PTL");
  static final ToolParam TLB_FLUSH =
      ToolParam.ns(
          "tlb_flush",
          160,
          MEASURED
              + "flush_tlb_mm_range of a one-page munmap, 4.6 % of its 3.48 us (one page: invlpg; arch/x86/mm/tlb.c flushes all past tlb_single_page_flush_ceiling, 33 pages)",
          "tlb_flush_mmu_tlbonly: TLB flush, preemption off");
  static final ToolParam FREE_LRU =
      ToolParam.ns(
          "free_lru",
          25,
          "[estimate] release_pages: folio_ref_sub_and_test, lruvec_del_folio under lruvec->lru_lock "
              + "(folio_lruvec_relock_irqsave: IRQs off)",
          "page freeing: per page under the lru lock");
  static final ToolParam FREE_PCP =
      ToolParam.ns(
          "free_pcp",
          40,
          "[estimate] free_unref_page_list: free_unref_page_commit under pcp->lock (preemption off)",
          "page freeing: per page under the pcp lock");
  static final ToolParam FREE_OTHER =
      ToolParam.ns(
          "free_other",
          35,
          "[estimate] free_swap_cache check, mem_cgroup_uncharge_list, free_unref_page_prepare "
              + "(total free 100 ns/page)",
          "page freeing: per page, preemptible");
  static final ToolParam FREE_PGTABLES =
      ToolParam.ns(
          "free_pgtables",
          520,
          MEASURED
              + "free_pgtables of a one-page munmap, 15 % of its 3.48 us, 82 % of that unlink_anon_vmas (anon_vma write lock); once per PMD",
          "munmap: per PMD");
  static final ToolParam PCP_ALLOC =
      ToolParam.ns(
          "pcp_alloc",
          40,
          "[estimate] rmqueue_pcplist: pcp_spin_trylock, list_del of the first page, counters",
          "page allocation from the per-CPU list, pcp->lock held");
  static final ToolParam ZONE_PER_PAGE =
      ToolParam.ns(
          "zone_per_page",
          60,
          "[estimate] __rmqueue_smallest / __free_one_page per page under zone->lock: free-list "
              + "operations and buddy split/merge, a struct page cache miss or two (~50-100 ns)",
          "page refill or bulk free: per page, zone->lock held (IRQs off)");
  static final ToolParam PCP_BATCH =
      ToolParam.num(
          "pcp_batch",
          63,
          "pages",
          "[src] mm/page_alloc.c zone_batchsize(): 63 for zones above ~1 GB; rmqueue_bulk refills and "
              + "free_pcppages_bulk frees a batch per zone->lock hold",
          "pcp->batch: the per-CPU page list's base refill and drain size");
  static final ToolParam PCP_BATCH_SCALE_MAX =
      ToolParam.num(
          "pcp_batch_scale_max",
          5,
          "shift",
          "[src] mm/Kconfig PCP_BATCH_SCALE_MAX default 5 (v6.7, \"mm: restrict the pcp batch "
              + "scale factor to avoid too long latency\"): a refill moves at most batch << 5 = 2016 "
              + "pages, decay_pcp_high keeps at most that many above high",
          "pcp high auto-tuning: the largest alloc_factor");
  static final ToolParam MEM_PER_CPU =
      ToolParam.num(
          "mem_per_cpu",
          4096,
          "MiB",
          "[assumption] the seed's machine is not stated: 4 GiB per hardware thread, a common "
              + "server configuration (512 GiB for 128 CPUs); each NUMA node's memory is one "
              + "ZONE_NORMAL (node 0's DMA/DMA32 zones left out)",
          "memory per CPU: a node's zone holds this times the node's CPUs, all free but the "
              + "workload's (zone_highsize's high_min and high_max come from it)");
  static final ToolParam WATERMARK_SCALE_FACTOR =
      ToolParam.num(
          "watermark_scale_factor",
          10,
          "1/10000",
          "[src] mm/page_alloc.c watermark_scale_factor default 10 (__setup_per_zone_wmarks: low = "
              + "min + max(min / 4, managed * 10 / 10000); min_free_kbytes = "
              + "int_sqrt(lowmem_kbytes * 16), clamped to 128..262144)",
          "vm.watermark_scale_factor: the zone's low watermark, of which each CPU's high_min is "
              + "a share");
  static final ToolParam VMSTAT_INTERVAL =
      ToolParam.ns(
          "vmstat_interval",
          1_000_000_000,
          "[src] mm/vmstat.c sysctl_stat_interval = HZ: vmstat_update, a per-CPU deferrable "
              + "delayed work, runs refresh_cpu_vm_stats(true) every second, which calls "
              + "decay_pcp_high for every zone",
          "period of each CPU's vmstat_update kworker run");
  static final ToolParam VMSTAT_CPU_SKEW =
      ToolParam.ns(
          "vmstat_cpu_skew",
          3_000_000,
          "[src] kernel/time/timer.c __round_jiffies: CPU c's expiry is rounded to the whole "
              + "second 3c jiffies later, then moved back by them; 3 ms at HZ=1000",
          "how much earlier each next CPU's vmstat_update runs");
  static final ToolParam VMSTAT_REFRESH =
      ToolParam.ns(
          "vmstat_refresh",
          2_000,
          "[estimate] refresh_cpu_vm_stats: folds the CPU's per-zone and per-node counter diffs "
              + "(about 50 items, a this_cpu_xchg and an atomic add each that changed), then "
              + "decay_pcp_high; its pcp->lock / zone->lock drain is modelled apart",
          "vmstat_update kworker: the refresh work besides the pcp drain (preemptible, "
              + "cond_resched before each zone's decay)");
  static final ToolParam MPROTECT_VMA =
      ToolParam.ns(
          "mprotect_vma",
          800,
          "[estimate] mprotect_fixup: mmap_write_lock, VMA split/merge",
          "mprotect(): VMA part");
  static final ToolParam CHANGE_PTE =
      ToolParam.ns(
          "change_pte",
          10,
          "[estimate] change_pte_range per present PTE",
          "mprotect: per page, PTL held");
  static final ToolParam SMALL_SYSCALL =
      ToolParam.ns(
          "small_syscall",
          500,
          "[estimate] an invalid or zero-length mmap/munmap/mprotect rejected early, or a one-page one",
          "the calls of steps 5-10 and the invalid --mmap-mprotect calls");
  static final ToolParam USER_SYSCALL =
      ToolParam.ns(
          "user_per_syscall",
          50,
          "[estimate] libc wrapper, loop and bookkeeping between two syscalls",
          "user time before each syscall");
  static final ToolParam USER_PER_PAGE =
      ToolParam.ns(
          "user_per_page",
          10,
          "[estimate] index init/shuffle (stress_mwc32modn) and mapped[] checks, per page and pass",
          "user-space loops over the page arrays");
  static final ToolParam NO_MEM_SLEEP =
      ToolParam.ns(
          "no_mem_sleep",
          100_000_000,
          "[src] stress-mmap.c: shim_usleep(100000) when no_mem_retries > 1",
          "sleep after a second mmap failure in a row");
  static final ToolParam STEADY_ATTEMPTS =
      ToolParam.num(
          "mmap_attempts_drawn",
          32,
          "count",
          "[estimate] how many random mmap_flags draws are laid out after MAP_POPULATE is dropped "
              + "(the program then repeats them)",
          "length of the drawn flag sequence");

  static final ToolParam VERSION =
      ToolParam.num(
          "version",
          1705,
          "release",
          "[src] stress-ng V0.17.05 (Feb 2024; commits 53041077f, aef94fdd5, a2931fd75, 2e265a610) "
              + "made the page fill, the random madvise and the page-by-page munmap of stress-mmap.c "
              + "opt-in; 1704 lays out V0.17.04's stress_mmap_child() (fill, madvise and unmap "
              + "every page), any value from 1705 the later one",
          "stress-ng release whose --mmap defaults the model follows, as MMmmpp without the "
              + "leading zero (1704 = V0.17.04)");
  static final ToolParam MADVISE_VMA =
      ToolParam.ns(
          "madvise_vma",
          500,
          MEASURED
              + "one-page madvise that leaves the VMA flags as they are (NORMAL, DOFORK, DODUMP, MERGEABLE), p50 0.56-0.68 us; a flag change inside a larger VMA adds vma_split per split",
          "madvise() of a VMA-flag advice (NORMAL ... DODUMP, MERGEABLE, UNMERGEABLE)");
  static final ToolParam KSM_UNMERGE_STEP =
      ToolParam.ns(
          "ksm_unmerge_step",
          30,
          "[estimate] unmerge_ksm_pages per page: break_ksm's walk_page_range_vma lookup (no KSM "
              + "page), then cond_resched()",
          "MADV_UNMERGEABLE on a VM_MERGEABLE VMA: per page");
  static final ToolParam MADVISE_WALK_PTE =
      ToolParam.ns(
          "madvise_walk_pte",
          5,
          "[estimate] a page-table walk step over a PTE with nothing to do (swapin_walk_pmd_entry, "
              + "cold_or_pageout_pte_range on the zero page)",
          "MADV_WILLNEED / COLD / PAGEOUT: per PTE scanned, PTL held");
  static final ToolParam MADVISE_COLD_PAGE =
      ToolParam.ns(
          "madvise_cold_page",
          60,
          "[estimate] cold_or_pageout_pte_range per present folio: ptep_test_and_clear_young, "
              + "folio_clear_referenced, folio_deactivate/isolate set-up",
          "MADV_COLD / PAGEOUT: per present page, PTL held");
  static final ToolParam PAGEOUT_RECLAIM =
      ToolParam.ns(
          "pageout_reclaim",
          1_000,
          "[estimate] reclaim_pages -> shrink_folio_list per anonymous folio with no swap "
              + "configured: folio_trylock, folio_check_references (rmap walk), add_to_swap "
              + "failing, activate; cond_resched() per folio",
          "MADV_PAGEOUT: per present page, preemptible");
  static final ToolParam FILL_PAGE =
      ToolParam.ns(
          "fill_page",
          150,
          "[estimate] stress_mmap_set (V0.17.04 core-mmap.c): rep stosq over 4 KiB, ~30 GB/s",
          "user time filling one page (version 1704)");
  static final ToolParam CHECK_PAGE =
      ToolParam.ns(
          "check_page",
          150,
          "[estimate] stress_mmap_check (V0.17.04 core-mmap.c): reads and compares 4 KiB",
          "user time checking one page (version 1704, step 2)");
  static final ToolParam MADVISE_DRAWN =
      ToolParam.num(
          "madvise_drawn",
          32,
          "count",
          "[estimate] how many stress_madvise_random draws are laid out for a per-page loop (the "
              + "loop repeats them over the region's pages)",
          "length of the drawn madvise sequence per loop (version 1704)");

  static final ToolParam LRU_DEL_LINES =
      ToolParam.num(
          "lru_del_lines",
          1,
          "lines",
          "[src] mm/mm_inline.h lruvec_del_folio -> update_lru_size -> "
              + "mem_cgroup_update_lru_size (v6.8): mem_cgroup_per_node.lru_zone_size[zid][lru], "
              + "written by every holder; the per-CPU stats and the folio's own LRU neighbours "
              + "(mostly from its own CPU's lru_add batch) are not counted",
          "lru_lock holds that take a folio off the LRU (release_pages, MADV_PAGEOUT isolation): "
              + "cache lines of shared lruvec data written, fetched from the last writer's CPU");
  static final ToolParam LRU_ADD_LINES =
      ToolParam.num(
          "lru_add_lines",
          3,
          "lines",
          "[src] mm/mm_inline.h lruvec_add_folio (v6.8): the list head lruvec->lists[lru], the "
              + "folio it points to (list_add writes its prev, last written by the previous "
              + "adder), and mem_cgroup_per_node.lru_zone_size",
          "lru_lock holds that put folios on the LRU (the lru_add and lru_deactivate batch "
              + "moves): cache lines of shared lruvec data written");
  static final ToolParam ZONE_LINES =
      ToolParam.num(
          "zone_lines",
          1,
          "lines",
          "[src] include/linux/mmzone.h struct free_area: the order-0 free list heads and nr_free "
              + "that rmqueue_bulk and free_pcppages_bulk (v6.8) write in every hold; the buddy "
              + "pages' own misses are in zone_per_page",
          "zone->lock holds: cache lines of shared zone data written");
  static final ToolParam RCU_SHEAF_CAPACITY =
      ToolParam.num(
          "rcu_sheaf_capacity",
          32,
          "objects",
          "[src] lib/maple_tree.c maple_tree_init (v6.18): maple_node_cache's sheaf_capacity 32; "
              + "mm/slub.c __kfree_rcu_sheaf: kfree_rcu() puts the node in the CPU's rcu_free sheaf "
              + "and call_rcu()s the sheaf (rcu_free_sheaf) when it holds that many",
          "maple nodes per rcu_free_sheaf() RCU callback");
  static final ToolParam MAPLE_NODES_PER_STORE =
      ToolParam.num(
          "maple_nodes_per_store",
          1,
          "nodes",
          "[src] lib/maple_tree.c (v6.18): the mm's tree is in RCU mode (MT_FLAGS_USE_RCU), so a "
              + "store that changes a leaf's entries (a VMA added, split or removed) writes a new "
              + "node (mas_wr_node_store, mas_replace_node) and frees the old one with "
              + "ma_free_rcu() -> kfree_rcu(); node splits and rebalances, which free more, are "
              + "left out",
          "maple nodes freed through kfree_rcu() per VMA-tree store (mmap, munmap, VMA split)");
  static final ToolParam RCU_FREE_SHEAF =
      ToolParam.ns(
          "rcu_free_sheaf",
          2_600,
          "[measured] Linux 6.18, 2-vCPU KVM guest: mmap-paths 1024 20 (V0.17.04's steady "
              + "attempt pinned to one CPU, softirqs traced) spends 9.3-9.6 ms of RCU_SOFTIRQ per 20 "
              + "attempts, about 0.45 ms per 1024-page attempt (docs/validation.md); the model's "
              + "attempt frees 5 maple nodes a page (steps 1 and 3: a split and the munmap's store; "
              + "step 2: the MAP_FIXED store), 160 sheaves, in about 25 RCU softirqs: (0.45 ms - "
              + "25 x cost.rcu_core) / 160 - cost.rcu_cb_overhead. The attempt's page-table frees "
              + "(a few tlb_remove_table_rcu callbacks) are in this figure",
          "rcu_free_sheaf(): one RCU callback freeing a sheaf of maple nodes back to the slab");
  static final ToolParam TLB_REMOVE_TABLE_RCU =
      ToolParam.ns(
          "tlb_remove_table_rcu",
          2_000,
          "[estimate] mm/mmu_gather.c tlb_remove_table_rcu (v6.18): frees the page-table pages "
              + "of one munmap's mmu_table_batch (tlb_table_flush -> call_rcu at tlb_finish_mmu), "
              + "about 1 us a table, two PTE tables for the 1024-page region",
          "tlb_remove_table_rcu(): the RCU callback of a munmap that freed page tables");

  static final List<ToolParam> PARAMS =
      List.of(
          PAGE_SIZE,
          SPREAD,
          MMAP_VMA,
          MMAP_FIXED_VMA,
          MMAP_FAIL,
          MUNMAP_VMA,
          MUNMAP_TAIL,
          MUNMAP_EMPTY,
          VMA_SPLIT,
          MADVISE_ENTRY,
          POPULATE_ENTRY,
          FAULT_ENTRY,
          GUP_STEP,
          FOLLOW_PTE,
          FAULT_ANON,
          CLEAR_PAGE,
          PTE_INSTALL,
          LRU_ADD,
          PCP_ALLOC,
          ZONE_PER_PAGE,
          PCP_BATCH,
          PCP_BATCH_SCALE_MAX,
          MEM_PER_CPU,
          WATERMARK_SCALE_FACTOR,
          VMSTAT_INTERVAL,
          VMSTAT_CPU_SKEW,
          VMSTAT_REFRESH,
          WP_FLUSH,
          ZERO_FAULT,
          ZERO_PTE,
          PTE_ALLOC,
          ZAP_PER_PTE,
          ZAP_ZERO_PTE,
          ZAP_PMD_STEP,
          TLB_FLUSH,
          FREE_LRU,
          FREE_PCP,
          FREE_OTHER,
          FREE_BATCH_LRU,
          FREE_BATCH_OTHER,
          FREE_PGTABLES,
          MPROTECT_VMA,
          CHANGE_PTE,
          SMALL_SYSCALL,
          USER_SYSCALL,
          USER_PER_PAGE,
          NO_MEM_SLEEP,
          STEADY_ATTEMPTS,
          VERSION,
          MADVISE_VMA,
          KSM_UNMERGE_STEP,
          MADVISE_WALK_PTE,
          MADVISE_COLD_PAGE,
          PAGEOUT_RECLAIM,
          FILL_PAGE,
          CHECK_PAGE,
          MADVISE_DRAWN,
          LRU_DEL_LINES,
          LRU_ADD_LINES,
          ZONE_LINES,
          RCU_SHEAF_CAPACITY,
          MAPLE_NODES_PER_STORE,
          RCU_FREE_SHEAF,
          TLB_REMOVE_TABLE_RCU);
}
