package dev.schedlab.lab.workload;

import static dev.schedlab.lab.workload.MmapCosts.CHECK_PAGE;
import static dev.schedlab.lab.workload.MmapCosts.FILL_PAGE;
import static dev.schedlab.lab.workload.MmapCosts.MADVISE_DRAWN;
import static dev.schedlab.lab.workload.MmapCosts.MMAP_FAIL;
import static dev.schedlab.lab.workload.MmapCosts.MUNMAP_EMPTY;
import static dev.schedlab.lab.workload.MmapCosts.STEADY_ATTEMPTS;
import static dev.schedlab.lab.workload.MmapCosts.USER_SYSCALL;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.lab.workload.MmapPaths.Advice;
import dev.schedlab.lab.workload.MmapPaths.Pages;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The stress-ng {@code --mmap} worker as released in V0.17.04 (January 2024), whose defaults the
 * next release made opt-in: it fills every page, madvises the region and every page with a random
 * advice, and unmaps page by page in steps 1 and 3. Source read: ColinIanKing/stress-ng tag
 * V0.17.04 (2f22ad59) stress-mmap.c stress_mmap_child(), core-mmap.c stress_mmap_set/check,
 * core-madvise.c (random advice on by default: g_opt_flags has OPT_FLAGS_MMAP_MADVISE unless {@code
 * --no-madvise}), core-mincore.c. One attempt over {@code P} pages:
 *
 * <ol>
 *   <li>{@code mmap(sz, PRIVATE|ANONYMOUS|POPULATE|rnd_flag)} ({@code mmap_flags[]} has 13 x86-64
 *       entries, no MAP_SYNC); a random madvise of the region, MADV_MERGEABLE of the region
 *       (unconditional), MADV_POPULATE_READ of the region, then stress_mmap_set fills every page (a
 *       write fault on each zero-page PTE).
 *   <li>step 1: MADV_POPULATE_READ again; per page in random order a random madvise and a one-page
 *       munmap, which frees the page; munmap of the emptied region.
 *   <li>step 2: per page mmap(MAP_FIXED[_NOREPLACE]), MADV_POPULATE_READ, a random madvise,
 *       MADV_MERGEABLE, the fill (a write fault) and stress_mmap_check.
 *   <li>step 3: per page a random madvise and a one-page munmap; steps 5-10 as in later releases.
 * </ol>
 *
 * The first failing mmap (a MAP_HUGETLB variant, no hugepage pool) clears MAP_POPULATE; the next
 * MAP_HUGETLB failure clears MAP_HUGETLB from the mask, and from then on no mmap fails (no 100 ms
 * sleep). The per-page advices are a drawn sequence of {@code madvise_drawn} per step that the
 * step's loop repeats over the pages (drawn once per worker), the region advice is drawn per
 * attempt.
 *
 * <p>Does not model: swap (PAGEOUT finds none), KSM merging (ksmd off), the order of the pages, the
 * VMA splits' dependence on which neighbours are still mapped.
 */
final class MmapModelV1704 {
  /** [src] V0.17.04 mmap_flags[] on x86-64: the 14 of later releases without MAP_SYNC. */
  static final int N_FLAGS = 13;

  private static final List<Advice> ADVICES = List.of(Advice.values());

  /**
   * [derived] VMA splits per page of steps 1 and 3: in step 1 the pages go in random order, so each
   * neighbour of a page is still mapped with probability 1/2 (measured: a third of the munmaps with
   * none, one and two each), one split on average; step 3 unmaps in address order after step 2
   * remapped every page (merged with its neighbours where the flags agree), so the left neighbour
   * is gone and the right one mapped: one split. A flag-changing madvise makes the split and the
   * munmap after it finds the page alone in its VMA; otherwise the munmap splits.
   */
  static final int PAGE_SPLITS = 1;

  private final MmapModel m;
  private final MmapPaths k;
  private final ToolContext ctx;
  private final Map<String, Object> shared = new LinkedHashMap<>();

  MmapModelV1704(MmapModel m) {
    this.m = m;
    this.k = m.k;
    this.ctx = m.ctx;
  }

  /** The draw sequences of a worker ({@link StepSpec.Pick}). */
  static final String POPULATING = "mmap/attempts-populating";

  static final String STEADY = "mmap/attempts-steady";

  /** The per-page advices of steps 1-3, and the first of them again for a region's last pages. */
  static final List<String> PER_PAGE =
      List.of("mmap/advices-1", "mmap/advices-2", "mmap/advices-3");

  static final List<String> PER_PAGE_REST =
      List.of("mmap/advices-1-rest", "mmap/advices-2-rest", "mmap/advices-3-rest");

  /** A failing mmap (a MAP_HUGETLB variant): choice 0 of the attempts. */
  private static final List<Object> FAIL = List.of();

  /**
   * The workers of {@code seeds}: each draws, as the worker it lays out, its per-page advices, then
   * its attempts while MAP_POPULATE is set, then a steady-state sequence that it repeats. Their one
   * program picks each attempt from the attempts any of them drew ({@code (pop, fixedPop, advice)},
   * built once) and each page's calls by the page's advice; what a worker drew is its draws.
   */
  List<MmapModel.Worker> workers(List<Long> seeds) {
    Map<List<Object>, Integer> kinds = new LinkedHashMap<>(); // attempt kind -> choice index
    kinds.put(FAIL, 0);
    List<Map<String, List<Integer>>> draws = new ArrayList<>();
    for (long seed : seeds) {
      draws.add(draw(new SplittableRandom(seed), kinds));
    }
    List<List<StepSpec>> choices = new ArrayList<>();
    List<List<Object>> byIndex = new ArrayList<>(kinds.keySet());
    byIndex.sort(java.util.Comparator.comparing(kinds::get));
    for (List<Object> kind : byIndex) {
      choices.add(kind.equals(FAIL) ? failedMmap() : attempt(kind));
    }
    List<StepSpec> program =
        List.of(
            new StepSpec.Pick(POPULATING, choices),
            new StepSpec.Loop(Integer.MAX_VALUE, List.of(new StepSpec.Pick(STEADY, choices))));
    return draws.stream().map(d -> new MmapModel.Worker(program, d)).toList();
  }

  /** One worker's draws, in stress-ng's order; new attempt kinds are added to {@code kinds}. */
  private Map<String, List<Integer>> draw(SplittableRandom rnd, Map<List<Object>, Integer> kinds) {
    int drawnMax = (int) Math.max(1, ctx.param(MADVISE_DRAWN));
    int n = (int) Math.min(drawnMax, m.pages);
    Map<String, List<Integer>> out = new LinkedHashMap<>();
    for (int step = 0; step < 3; step++) {
      List<Integer> seq = new ArrayList<>();
      for (int i = 0; i < drawnMax; i++) {
        seq.add(rnd.nextInt(ADVICES.size())); // as randomAdvice(): the choice's index
      }
      out.put(PER_PAGE.get(step), List.copyOf(seq.subList(0, n)));
      out.put(PER_PAGE_REST.get(step), List.copyOf(seq.subList(0, (int) (m.pages % n))));
    }
    List<Integer> populating = new ArrayList<>();
    List<Integer> steady = new ArrayList<>();
    boolean populate = true;
    boolean hugetlbMasked = false;
    int drawn = 0;
    int steadyMax = (int) Math.max(1, ctx.param(STEADY_ATTEMPTS));
    while (drawn < steadyMax) {
      int flag = rnd.nextInt(N_FLAGS);
      List<Integer> seq = populate ? populating : steady;
      if (flag < MmapModel.HUGETLB_FLAGS && !hugetlbMasked) {
        seq.add(kinds.get(FAIL));
        hugetlbMasked = !populate; // mask &= ~MAP_HUGETLB; goto retry
        populate = false; // context->flags &= ~MAP_POPULATE
        continue;
      }
      boolean pop = (populate && flag != MmapModel.FLAG_NONBLOCK) || flag == MmapModel.FLAG_LOCKED;
      Advice advice = randomAdvice(rnd);
      seq.add(kinds.computeIfAbsent(List.of(pop, populate, advice), k -> kinds.size()));
      if (!populate) {
        drawn++;
      }
    }
    out.put(POPULATING, List.copyOf(populating));
    out.put(STEADY, List.copyOf(steady));
    return out;
  }

  /** stress_madvise_random(): one of madvise_options[], uniformly. */
  private static Advice randomAdvice(SplittableRandom rnd) {
    return ADVICES.get(rnd.nextInt(ADVICES.size()));
  }

  /** A failing mmap: the syscall returns MAP_FAILED. */
  private List<StepSpec> failedMmap() {
    return List.of(
        Tasks.user(ctx.param(USER_SYSCALL)),
        Tasks.kernel(k.seg(ctx.param(MMAP_FAIL), "MIGHT_RESCHED")));
  }

  /** The successful attempt of {@code kind} = (pop, fixedPop, region advice). */
  private List<StepSpec> attempt(List<Object> kind) {
    boolean pop = (Boolean) kind.get(0);
    boolean fixedPop = (Boolean) kind.get(1);
    return iteration(pop, (Advice) kind.get(2), pageSteps(fixedPop));
  }

  /** Steps 1-3 of the attempts, each page's calls picked by the worker's drawn advices. */
  private List<List<StepSpec>> pageSteps(boolean fixedPop) {
    return memo(
        "pageSteps/" + fixedPop,
        () ->
            List.of(
                perPage(0, this::unmapOne),
                perPage(1, a -> remapOne(a, fixedPop)),
                perPage(2, this::unmapOne)));
  }

  /**
   * One successful attempt: the region passes, then steps 1-3 per page ({@code pageSteps}), then
   * steps 5-10.
   */
  private List<StepSpec> iteration(
      boolean pop, Advice regionAdvice, List<List<StepSpec>> pageSteps) {
    long pages = m.pages;
    List<StepSpec> it = new ArrayList<>();
    m.syscall(it, k.mmap(pages, pop, false));
    Pages state = pop ? Pages.ANON : Pages.ABSENT;
    m.syscall(it, madvise(regionAdvice, pages, state));
    state = regionAdvice.after(state);
    m.syscall(it, madvise(Advice.MERGEABLE, pages, state));
    m.syscall(it, k.populateRead(pages, state));
    state = Advice.POPULATE_READ.after(state);
    if (m.opt.mprotect()) {
      m.mprotect(it, pages);
    }
    it.add(m.userPages(pages)); // mapped[] / mappings[] init
    fill(it, pages, state);
    it.add(m.userPages(2 * pages)); // index init + shuffle
    m.syscall(it, k.populateRead(pages, Pages.ANON));
    it.addAll(pageSteps.get(0)); // step 1
    m.syscall(it, Tasks.kernel(k.seg(ctx.param(MUNMAP_EMPTY), "MIGHT_RESCHED")));
    it.add(m.userPages(pages)); // shuffle
    it.addAll(pageSteps.get(1)); // step 2
    it.addAll(pageSteps.get(2)); // step 3
    m.misc(it);
    return it;
  }

  /**
   * A loop over the pages of step {@code step}: the worker's drawn advices in turn, one page each,
   * over and over ({@link #PER_PAGE}), then the first of them again for the pages left over ({@link
   * #PER_PAGE_REST}).
   */
  private List<StepSpec> perPage(int step, Function<Advice, List<StepSpec>> page) {
    long pages = m.pages;
    int n = (int) Math.min(Math.max(1, ctx.param(MADVISE_DRAWN)), pages);
    List<List<StepSpec>> byAdvice = ADVICES.stream().map(page).toList();
    List<StepSpec> out =
        new ArrayList<>(
            Tasks.repeat(pages / n, List.of(new StepSpec.Pick(PER_PAGE.get(step), byAdvice))));
    if (pages % n > 0) {
      out.add(new StepSpec.Pick(PER_PAGE_REST.get(step), byAdvice));
    }
    return out;
  }

  /**
   * Steps 1 and 3 for one (filled) page: a random madvise, then munmap of the page; the first of
   * them to change the page's VMA splits it ({@link #PAGE_SPLITS}).
   */
  private List<StepSpec> unmapOne(Advice a) {
    return memo(
        "unmap/" + a,
        () -> {
          int bySplit = a.changesFlags() ? PAGE_SPLITS : 0;
          List<StepSpec> out = new ArrayList<>();
          m.syscall(out, madvise(a, 1, Pages.ANON, bySplit));
          if (m.opt.mprotect()) {
            m.mprotect(out, 1);
          }
          int unmapSplits = PAGE_SPLITS - bySplit;
          m.syscall(
              out, memo("munmap1/" + unmapSplits, () -> k.munmap(1, Pages.ANON, unmapSplits)));
          return out;
        });
  }

  /** Step 2 for one page: mmap(MAP_FIXED), populate-read, madvise, mergeable, fill, check. */
  private List<StepSpec> remapOne(Advice a, boolean fixedPop) {
    return memo(
        "remap/" + a + "/" + fixedPop,
        () -> {
          List<StepSpec> out = new ArrayList<>();
          m.syscall(out, k.mmap(1, fixedPop, true));
          Pages state = fixedPop ? Pages.ANON : Pages.ABSENT;
          m.syscall(out, k.populateRead(1, state));
          state = Advice.POPULATE_READ.after(state);
          m.syscall(out, madvise(a, 1, state));
          state = a.after(state);
          m.syscall(out, madvise(Advice.MERGEABLE, 1, state));
          if (m.opt.mprotect()) {
            m.mprotect(out, 1);
          }
          fill(out, 1, state);
          out.add(new StepSpec.User(k.dist(ctx.param(CHECK_PAGE))));
          return out;
        });
  }

  /** stress_mmap_set over {@code n} pages: a write fault on each page not yet anonymous. */
  private void fill(List<StepSpec> out, long n, Pages state) {
    if (state == Pages.ANON) {
      out.add(new StepSpec.User(k.dist(n * ctx.param(FILL_PAGE))));
      return;
    }
    List<StepSpec> one =
        List.of(k.writeFault(state), new StepSpec.User(k.dist(ctx.param(FILL_PAGE))));
    out.addAll(Tasks.repeat(n, one));
  }

  private StepSpec madvise(Advice a, long n, Pages state) {
    return madvise(a, n, state, 0);
  }

  private StepSpec madvise(Advice a, long n, Pages state, int splits) {
    return memo(
        "madvise/" + a + "/" + n + "/" + state + "/" + splits,
        () -> k.madvise(a, n, state, splits));
  }

  /** One instance per distinct path, shared by every place that runs it (fewer objects). */
  @SuppressWarnings("unchecked")
  private <T> T memo(String key, Supplier<T> make) {
    Object v = shared.get(key);
    if (v == null) { // not computeIfAbsent: the suppliers memoize their parts in the same map
      v = make.get();
      shared.put(key, v);
    }
    return (T) v;
  }
}
