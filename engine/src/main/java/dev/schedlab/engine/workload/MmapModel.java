package dev.schedlab.engine.workload;

import dev.schedlab.engine.scenario.StepSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The stress-ng {@code --mmap} worker loop (stress-mmap.c) as kernel paths. One iteration over a
 * region of {@code P = bytes / page_size} pages:
 *
 * <ol>
 *   <li>{@code mmap()} of the region (mmap_lock, VMA set-up);
 *   <li>touch every page: a page fault each (walk + page allocation that may sleep, clear_page,
 *       PTE install under the page-table lock);
 *   <li>{@code msync()}; with {@code --mmap-mprotect} an {@code mprotect()} of the region
 *       (change_protection: the PTL held per PMD, cond_resched between PMDs);
 *   <li>{@code munmap()} of every page singly (VMA split under mmap_lock, PTE zap and TLB flush
 *       under the PTL, page freeing);
 *   <li>{@code mmap(MAP_FIXED)} of every page back and a fault on it;
 *   <li>{@code munmap()} of the whole region: {@code zap_pte_range()} holds the PTL for each PMD
 *       (512 PTEs), then frees the batch; {@code cond_resched()} between PMDs.
 * </ol>
 *
 * Page faults and syscalls return to user space, where the worker's own code runs briefly.
 */
final class MmapModel {
  /** stress-ng's DEFAULT_MMAP_BYTES (256 MB), shared by the instances. */
  static final long DEFAULT_BYTES = 256L << 20;

  static final ToolParam PAGE_SIZE = ToolParam.num("mmap_page_size", 4096, "bytes",
      "[src] x86-64/arm64 4K base pages", "page size");
  static final ToolParam MMAP_SYSCALL = ToolParam.ns("mmap_syscall", 2_000,
      "[estimate] do_mmap: get_unmapped_area, VMA alloc/merge under mmap_lock", "mmap() kernel time");
  static final ToolParam FAULT_WALK = ToolParam.ns("fault_walk", 400,
      "[estimate] handle_mm_fault walk + alloc_page (may sleep: might_resched)",
      "page fault: preemptible part before the page is cleared");
  static final ToolParam CLEAR_PAGE = ToolParam.ns("clear_page", 250,
      "[estimate] 4 KiB clear at ~16 GB/s", "page fault: clear_page()");
  static final ToolParam PTE_LOCKED = ToolParam.ns("pte_locked", 200,
      "[estimate] PTE install + rmap/LRU under the page-table spinlock", "page fault: PTL-held part");
  static final ToolParam TOUCH_USER = ToolParam.ns("touch_user", 100,
      "[estimate] the worker writing to the faulted page", "user time per page touched");
  static final ToolParam MSYNC = ToolParam.ns("msync", 1_000,
      "[estimate] msync on an anonymous mapping", "msync() kernel time");
  static final ToolParam UNMAP_VMA = ToolParam.ns("munmap_vma", 1_500,
      "[estimate] mmap_write_lock, VMA split/unlink", "single-page munmap: preemptible part");
  static final ToolParam UNMAP_LOCKED = ToolParam.ns("munmap_locked", 800,
      "[estimate] PTE zap + local TLB flush under the PTL", "single-page munmap: PTL-held part");
  static final ToolParam UNMAP_FREE = ToolParam.ns("munmap_free", 300,
      "[estimate] tlb_finish_mmu, free the page", "single-page munmap: freeing");
  static final ToolParam MMAP_FIXED = ToolParam.ns("mmap_fixed", 1_500,
      "[estimate] MAP_FIXED single-page mmap, VMA merge", "per-page re-mmap kernel time");
  static final ToolParam ZAP_PER_PTE = ToolParam.ns("zap_per_pte", 20,
      "[estimate] zap_pte_range per present PTE (PTL held for the whole PMD)",
      "whole-range munmap/mprotect: per page, PTL held");
  static final ToolParam FREE_PER_PAGE = ToolParam.ns("free_per_page", 50,
      "[estimate] free_pages_and_swap_cache per page", "whole-range munmap: per page freed");

  static final List<ToolParam> PARAMS = List.of(PAGE_SIZE, MMAP_SYSCALL, FAULT_WALK, CLEAR_PAGE,
      PTE_LOCKED, TOUCH_USER, MSYNC, UNMAP_VMA, UNMAP_LOCKED, UNMAP_FREE, MMAP_FIXED, ZAP_PER_PTE,
      FREE_PER_PAGE);

  private static final int PTES_PER_PMD = 512;

  private MmapModel() {}

  static List<StepSpec> program(ToolContext ctx, long bytes, boolean mprotect) {
    long pages = Math.max(1, bytes / ctx.param(PAGE_SIZE));
    List<StepSpec> fault = List.of(
        Tasks.user(ctx.param(TOUCH_USER)),
        Tasks.kernel(
            Tasks.seg(ctx.param(FAULT_WALK), "MIGHT_RESCHED"),
            Tasks.seg(ctx.param(CLEAR_PAGE), "NONE"),
            Tasks.locked(ctx.param(PTE_LOCKED))));
    List<StepSpec> prog = new ArrayList<>();
    prog.add(Tasks.kernel(Tasks.seg(ctx.param(MMAP_SYSCALL), "MIGHT_RESCHED")));
    prog.addAll(Tasks.repeat(pages, fault));
    prog.add(Tasks.kernel(Tasks.seg(ctx.param(MSYNC), "NONE")));
    if (mprotect) {
      prog.add(new StepSpec.Kernel(pmdWalk(ctx, pages, false)));
    }
    prog.addAll(Tasks.repeat(pages, List.of(Tasks.kernel(
        Tasks.seg(ctx.param(UNMAP_VMA), "MIGHT_RESCHED"),
        Tasks.locked(ctx.param(UNMAP_LOCKED)),
        Tasks.seg(ctx.param(UNMAP_FREE), "NONE")))));
    List<StepSpec> remap = new ArrayList<>();
    remap.add(Tasks.kernel(Tasks.seg(ctx.param(MMAP_FIXED), "MIGHT_RESCHED")));
    remap.addAll(fault);
    prog.addAll(Tasks.repeat(pages, remap));
    prog.add(new StepSpec.Kernel(pmdWalk(ctx, pages, true)));
    return prog;
  }

  /** Per PMD: the PTL-held PTE walk, then (munmap) the freeing, then cond_resched. */
  private static List<StepSpec.Segment> pmdWalk(ToolContext ctx, long pages, boolean free) {
    List<StepSpec.Segment> segs = new ArrayList<>();
    segs.add(Tasks.seg(ctx.param(UNMAP_VMA), "MIGHT_RESCHED"));
    for (long left = pages; left > 0; left -= PTES_PER_PMD) {
      long n = Math.min(left, PTES_PER_PMD);
      segs.add(Tasks.locked(n * ctx.param(ZAP_PER_PTE)));
      segs.add(Tasks.seg(free ? n * ctx.param(FREE_PER_PAGE) : 100, "COND_RESCHED"));
    }
    return segs;
  }
}
