package dev.schedlab.lab.workload;

import static dev.schedlab.lab.workload.MmapCosts.MMAP_FAIL;
import static dev.schedlab.lab.workload.MmapCosts.MUNMAP_EMPTY;
import static dev.schedlab.lab.workload.MmapCosts.NO_MEM_SLEEP;
import static dev.schedlab.lab.workload.MmapCosts.SMALL_SYSCALL;
import static dev.schedlab.lab.workload.MmapCosts.STEADY_ATTEMPTS;
import static dev.schedlab.lab.workload.MmapCosts.USER_PER_PAGE;
import static dev.schedlab.lab.workload.MmapCosts.USER_SYSCALL;
import static dev.schedlab.lab.workload.MmapCosts.VMSTAT_CPU_SKEW;
import static dev.schedlab.lab.workload.MmapCosts.VMSTAT_INTERVAL;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.lab.workload.MmapPaths.Pages;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * The stress-ng {@code --mmap} worker ({@code stress_mmap_child()}) as the syscalls and faults it
 * issues, each a kernel path from {@link MmapPaths}. Source read: ColinIanKing/stress-ng
 * stress-mmap.c @22a7c1de145e82012c5f4f1467e3637babd3a293 and
 * core-mincore.c @10d6a0e7007080bf2d5f2bf7759f2b73c407ee86 (no V0.17.x file is in the index; the
 * 2020 file @01afb213 has the same flags, MAP_POPULATE default and retry logic). One attempt over
 * {@code P = sz / 4096} pages, default options:
 *
 * <ol>
 *   <li>{@code mmap(sz, PRIVATE|ANONYMOUS|POPULATE|rnd_flag)}: populate = __mm_populate ->
 *       __get_user_pages inside the syscall, a write fault per page between cond_resched()s; no
 *       return to user until all P pages are in. The first failing mmap (a MAP_HUGETLB variant with
 *       no hugepage pool) clears MAP_POPULATE for the rest of the run; two failures in a row sleep
 *       100 ms; MAP_NONBLOCK skips the populate; MAP_LOCKED always populates.
 *   <li>stress_mincore_touch_pages = madvise(MADV_POPULATE_READ), twice (zero page on absent
 *       pages); with --mmap-write-check a write to every page in between.
 *   <li>step 1 (per page only with --mmap-mprotect), fast munmap of the contiguous region, then
 *       munmap of the (now empty) region.
 *   <li>step 2: per page mmap(MAP_FIXED[_NOREPLACE] | context flags) and a one-page
 *       MADV_POPULATE_READ (and the write with --mmap-write-check), each returning to user.
 *   <li>step 3: fast munmap again; step 4 finds no page (mapped[] was cleared); steps 5-10: the
 *       invalid and one-page mmap/munmap/mprotect calls and one shared-page write fault.
 * </ol>
 *
 * <p>Does not model: --mmap-madvise (stress_madvise_randomize), --mmap-mlock, --mmap-file,
 * --mmap-mergeable, --mmap-numa; THP (4 KiB faults); the munlock of MAP_LOCKED pages at munmap.
 */
final class MmapModel {
  /** stress-ng's DEFAULT_MMAP_BYTES (256 MB), shared by the instances. */
  static final long DEFAULT_BYTES = 256L << 20;

  static final List<ToolParam> PARAMS = MmapCosts.PARAMS;

  /**
   * [src] mmap_flags[] on x86-64 Linux/glibc: HUGE_2MB|HUGETLB, HUGE_1GB|HUGETLB, HUGETLB,
   * NONBLOCK, GROWSDOWN, LOCKED, 32BIT, NORESERVE, STACK, EXECUTABLE, UNINITIALIZED, DENYWRITE,
   * SYNC, 0.
   */
  static final int N_FLAGS = 14;

  static final int HUGETLB_FLAGS = 3;
  static final int FLAG_NONBLOCK = 3;
  static final int FLAG_LOCKED = 5;

  /**
   * [src] steps 5-10: 6 x 2 invalid mmaps (libc rejects the third), 2 invalid munmaps, the step-7
   * and step-8 mmap/munmap pairs with open/close, steps 9-10 mmap/prctl/mprotect/munmap.
   */
  static final int MISC_SYSCALLS = 12 + 2 + 2 + 4 + 4 + 4;

  /**
   * The worker's options; {@code release1704}: lay out stress-ng V0.17.04's defaults ({@link
   * MmapModelV1704}) instead of the V0.17.05+ ones.
   */
  record Options(boolean mprotect, boolean slowMunmap, boolean writeCheck, boolean release1704) {}

  final ToolContext ctx;
  final MmapPaths k;
  final long pages;
  final Options opt;

  /** The V0.17.04 layout, with the kernel paths it built so far; null for later releases. */
  private final @Nullable MmapModelV1704 v1704;

  /** The successful attempts built so far, by their (pop, fixedPop). */
  private final Map<List<Boolean>, List<StepSpec>> attempts = new HashMap<>();

  private MmapModel(ToolContext ctx, long bytes, Options opt) {
    this.ctx = ctx;
    this.k = new MmapPaths(ctx);
    this.pages = Math.max(1, bytes / ctx.param(MmapCosts.PAGE_SIZE));
    this.opt = opt;
    this.v1704 = opt.release1704() ? new MmapModelV1704(this) : null;
  }

  /**
   * The workers of one stress-ng instance: their programs share every kernel path and attempt (one
   * object each, so building and compiling them is done once, not once per worker).
   */
  static MmapModel workers(ToolContext ctx, long bytes, Options opt) {
    return new MmapModel(ctx, bytes, opt);
  }

  /**
   * A worker: its program and the draws its {@link StepSpec.Pick} steps read ({@link
   * dev.schedlab.engine.config.TaskSpec#draws()}).
   */
  record Worker(List<StepSpec> program, Map<String, List<Integer>> draws) {}

  /**
   * The workers of {@code seeds}, one each. A seed seeds the worker's draws of {@code mmap_flags[]}
   * (stress-ng's mwc); the generator has no access to the scenario seed, so the sequence is fixed
   * per worker. With the V0.17.04 layout the workers share one program and differ in their draws
   * only.
   */
  List<Worker> workers(List<Long> seeds) {
    if (v1704 != null) {
      return v1704.workers(seeds);
    }
    return seeds.stream().map(s -> new Worker(build(new SplittableRandom(s)), Map.of())).toList();
  }

  /** The worker of a lone worker's {@code seed} ({@link #workers(List)}). */
  static Worker worker(ToolContext ctx, long bytes, Options opt, long seed) {
    return workers(ctx, bytes, opt).workers(List.of(seed)).get(0);
  }

  /**
   * Each CPU's vmstat_update kworker (mm/vmstat.c): a bound kworker that runs refresh_cpu_vm_stats,
   * and with it decay_pcp_high, every {@code vmstat_interval}. The delayed work is queued with
   * round_jiffies_relative, which skews CPU c by 3c jiffies ahead of the whole second
   * (__round_jiffies; {@code vmstat_cpu_skew}); the first runs one interval after boot.
   */
  static List<TaskSpec> vmstatWorkers(ToolContext ctx) {
    MmapPaths k = new MmapPaths(ctx);
    long interval = Math.max(1, ctx.param(VMSTAT_INTERVAL));
    List<StepSpec> prog =
        List.of(
            new StepSpec.Loop(
                Integer.MAX_VALUE,
                List.of(k.vmstatRefresh(), new StepSpec.SleepUntil(interval, null))));
    List<TaskSpec> out = new ArrayList<>();
    for (int cpu = 0; cpu < ctx.nrCpus(); cpu++) {
      long skew = Math.floorMod(cpu * ctx.param(VMSTAT_CPU_SKEW), interval);
      out.add(
          new TaskSpec(
              "kworker/" + cpu + ":vmstat",
              1,
              "normal",
              0,
              0,
              0,
              0,
              0,
              String.valueOf(cpu),
              false,
              true,
              "own",
              interval - skew,
              prog));
    }
    return out;
  }

  static MmapModel forTest(ToolContext ctx, long bytes, Options opt) {
    return new MmapModel(ctx, bytes, opt);
  }

  /** The attempts while MAP_POPULATE is set, then a loop over a drawn steady-state sequence. */
  private List<StepSpec> build(SplittableRandom rnd) {
    List<StepSpec> prog = new ArrayList<>();
    List<StepSpec> steady = new ArrayList<>();
    boolean populate = true;
    boolean lastFailed = false;
    int drawn = 0;
    int steadyMax = (int) Math.max(1, ctx.param(STEADY_ATTEMPTS));
    int run = 0; // pending identical plain iterations, emitted as one loop
    while (drawn < steadyMax) {
      int flag = rnd.nextInt(N_FLAGS);
      List<StepSpec> out = populate ? prog : steady;
      if (flag < HUGETLB_FLAGS) {
        run = flush(out, run);
        out.add(Tasks.user(ctx.param(USER_SYSCALL)));
        out.add(Tasks.kernel(k.seg(ctx.param(MMAP_FAIL), "MIGHT_RESCHED")));
        if (!populate) {
          drawn++;
          if (lastFailed) { // no_mem_retries > 1
            steady.add(new StepSpec.Sleep(Dist.fixed(ctx.param(NO_MEM_SLEEP))));
          }
        }
        populate = false; // context->flags &= ~MAP_POPULATE
        lastFailed = true;
        continue;
      }
      lastFailed = false;
      boolean pop = (populate && flag != FLAG_NONBLOCK) || flag == FLAG_LOCKED;
      if (populate) {
        prog.addAll(attempt(pop, true));
      } else if (pop) {
        run = flush(steady, run);
        steady.addAll(attempt(true, false));
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
      out.addAll(Tasks.repeat(run, attempt(false, false)));
    }
    return 0;
  }

  /** {@link #iteration}, built once per model (its steps are immutable, shared by the workers). */
  private List<StepSpec> attempt(boolean pop, boolean fixedPop) {
    return attempts.computeIfAbsent(List.of(pop, fixedPop), key -> iteration(pop, fixedPop));
  }

  /**
   * One successful attempt. {@code pop}: the region mmap populates (MAP_POPULATE or MAP_LOCKED);
   * {@code fixedPop}: the step-2 one-page mmaps carry MAP_POPULATE.
   */
  List<StepSpec> iteration(boolean pop, boolean fixedPop) {
    List<StepSpec> it = new ArrayList<>();
    syscall(it, k.mmap(pages, pop, false)); // with __mm_populate, still inside mmap()
    Pages state = pop ? Pages.ANON : Pages.ABSENT;
    syscall(it, k.populateRead(pages, state));
    state = state == Pages.ABSENT ? Pages.ZERO : state;
    if (opt.mprotect()) {
      mprotect(it, pages);
    }
    it.add(userPages(pages)); // mapped[] / mappings[] init
    if (opt.writeCheck()) {
      state = touch(it, pages, state); // stress_mmap_set_light
    }
    syscall(it, k.populateRead(pages, state));
    it.add(userPages(2 * pages)); // idx init + shuffle
    if (opt.mprotect()) {
      List<StepSpec> one = new ArrayList<>();
      mprotect(one, 1);
      it.addAll(Tasks.repeat(pages, one));
    } else {
      it.add(userPages(pages)); // step-1 loop with nothing to do per page
    }
    munmapAll(it, state);
    syscall(it, Tasks.kernel(k.seg(ctx.param(MUNMAP_EMPTY), "MIGHT_RESCHED")));
    it.add(userPages(pages)); // shuffle
    it.addAll(Tasks.repeat(pages, remapOne(fixedPop)));
    Pages fixedState = fixedPop || opt.writeCheck() ? Pages.ANON : Pages.ZERO;
    munmapAll(it, fixedState); // step 3
    misc(it);
    return it;
  }

  /** Steps 5-10: the invalid and one-page calls, and step 9's write to a shared page. */
  void misc(List<StepSpec> it) {
    it.addAll(
        Tasks.repeat(
            MISC_SYSCALLS,
            List.of(
                Tasks.user(ctx.param(USER_SYSCALL)),
                Tasks.kernel(k.seg(ctx.param(SMALL_SYSCALL), "MIGHT_RESCHED")))));
    it.add(k.writeFault(Pages.ABSENT)); // step 9: *buf64 = val
  }

  /** Step 2 for one page: mmap(MAP_FIXED), MADV_POPULATE_READ, then the optional extras. */
  private List<StepSpec> remapOne(boolean fixedPop) {
    List<StepSpec> out = new ArrayList<>();
    syscall(out, k.mmap(1, fixedPop, true));
    Pages state = fixedPop ? Pages.ANON : Pages.ABSENT;
    syscall(out, k.populateRead(1, state));
    state = state == Pages.ABSENT ? Pages.ZERO : state;
    if (opt.mprotect()) {
      mprotect(out, 1);
    }
    if (opt.writeCheck() && state != Pages.ANON) {
      out.add(k.writeFault(state));
    }
    return out;
  }

  /** A write to each page from user space; returns the new state of the region. */
  private Pages touch(List<StepSpec> it, long n, Pages state) {
    if (state == Pages.ANON) {
      it.add(userPages(n));
      return state;
    }
    it.addAll(Tasks.repeat(n, List.of(userPages(1), k.writeFault(state))));
    return Pages.ANON;
  }

  /** munmap of the whole region (fast munmap) or page by page (--mmap-slow-munmap). */
  private void munmapAll(List<StepSpec> it, Pages state) {
    if (opt.slowMunmap()) {
      List<StepSpec> one = new ArrayList<>();
      syscall(one, k.munmap(1, state));
      it.addAll(Tasks.repeat(pages, one));
    } else {
      syscall(it, k.munmap(pages, state));
    }
  }

  /** stress_mmap_mprotect(): 6 invalid or zero-length calls, then 5 over the range. */
  void mprotect(List<StepSpec> out, long n) {
    out.addAll(
        Tasks.repeat(
            6,
            List.of(
                Tasks.user(ctx.param(USER_SYSCALL)),
                Tasks.kernel(k.seg(ctx.param(SMALL_SYSCALL), "MIGHT_RESCHED")))));
    out.addAll(Tasks.repeat(5, List.of(Tasks.user(ctx.param(USER_SYSCALL)), k.mprotect(n))));
  }

  void syscall(List<StepSpec> out, StepSpec kernel) {
    out.add(Tasks.user(ctx.param(USER_SYSCALL)));
    out.add(kernel);
  }

  StepSpec userPages(long n) {
    return new StepSpec.User(k.dist(n * ctx.param(USER_PER_PAGE)));
  }
}
