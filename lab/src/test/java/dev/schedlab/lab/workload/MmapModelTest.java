package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.StepSpec.Segment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MmapModelTest {
  private static final ToolContext CTX =
      new ToolContext("stress-ng", PcpHighTest.MACHINE_64, 0, Map.of());
  private static final long PAGES = 8192; // 32 MB: 256 MB / 8 workers
  private static final String COND = "COND_RESCHED";

  private static long p(ToolParam param) {
    return CTX.param(param);
  }

  /** A syscall's kernel path unrolled: its segments in the order they run. */
  static List<Segment> segs(StepSpec s) {
    List<Segment> out = new ArrayList<>();
    unroll(List.of(s), out);
    return out;
  }

  private static void unroll(List<StepSpec> parts, List<Segment> out) {
    for (StepSpec p : parts) {
      if (p instanceof StepSpec.Kernel k) {
        out.addAll(k.segments());
      } else if (p instanceof StepSpec.Syscall sc) {
        unroll(sc.parts(), out);
      } else if (p instanceof StepSpec.Loop l) {
        for (int i = 0; i < l.count(); i++) {
          unroll(l.body(), out);
        }
      } else {
        throw new IllegalArgumentException("not a kernel path: " + p);
      }
    }
  }

  /**
   * The steps a worker runs in order, loops unrolled and picks resolved by its draws ({@code steps}
   * must not hold its endless loop).
   */
  static List<StepSpec> run(List<StepSpec> steps, Map<String, List<Integer>> draws) {
    List<StepSpec> out = new ArrayList<>();
    run(steps, draws, out);
    return out;
  }

  private static void run(
      List<StepSpec> steps, Map<String, List<Integer>> draws, List<StepSpec> out) {
    for (StepSpec st : steps) {
      if (st instanceof StepSpec.Loop l) {
        for (int i = 0; i < l.count(); i++) {
          run(l.body(), draws, out);
        }
      } else if (st instanceof StepSpec.Pick p) {
        for (int v : draws.get(p.draws())) {
          run(p.choices().get(v), draws, out);
        }
      } else {
        out.add(st);
      }
    }
  }

  /** One pass of what a worker runs: its attempts before its endless loop, then one iteration. */
  static List<StepSpec> onePass(MmapModel.Worker w) {
    List<StepSpec> prog = w.program();
    StepSpec.Loop last = (StepSpec.Loop) prog.get(prog.size() - 1);
    List<StepSpec> out = run(prog.subList(0, prog.size() - 1), w.draws());
    out.addAll(run(last.body(), w.draws()));
    return out;
  }

  private static boolean isKernelPath(StepSpec s) {
    return s instanceof StepSpec.Kernel || s instanceof StepSpec.Syscall;
  }

  /**
   * The timed segments of a kernel path in order, without the lock and cache items and without the
   * refills and drains a cache item guards (they run only when the CPU's count says so).
   */
  private static List<Segment> plain(List<Segment> s) {
    List<Segment> out = new ArrayList<>();
    for (int i = 0; i < s.size(); i++) {
      Segment g = s.get(i);
      if (g.cache() != null) {
        i += g.cache().then();
      } else if (g.lock() == null) {
        out.add(g);
      }
    }
    return out;
  }

  /**
   * Whether the segment at {@code i} is held under lock {@code name} (taken before, not released).
   */
  private static boolean under(List<Segment> s, int i, String name) {
    int depth = 0;
    for (int j = 0; j < i; j++) {
      StepSpec.LockAction a = s.get(j).lock();
      if (a != null && a.lock().equals(name)) {
        depth += a.acquire() ? 1 : -1;
      }
    }
    return depth > 0;
  }

  /** Mean time between voluntary points (cond_resched) of a kernel path, in order. */
  private static List<Double> condReschedGaps(List<Segment> s) {
    List<Double> gaps = new ArrayList<>();
    double acc = 0;
    for (Segment g : plain(s)) {
      acc += g.duration().meanNs();
      if (COND.equals(g.endsWith())) {
        gaps.add(acc);
        acc = 0;
      }
    }
    return gaps;
  }

  @Test
  void onlyAFaultFromUserPaysTheExceptionEntryAndOnlyAPopulatePaysItsSetUp() {
    MmapPaths k = new MmapPaths(CTX);
    long entry = p(MmapCosts.FAULT_ENTRY);
    long populate = p(MmapCosts.MADVISE_ENTRY) + p(MmapCosts.POPULATE_ENTRY);
    assertThat(plain(segs(k.writeFault(MmapPaths.Pages.ZERO))).get(0).duration().meanNs())
        .isEqualTo((double) entry);
    // GUP faults inside mmap(MAP_POPULATE) and MADV_POPULATE_WRITE take no exception
    List<Segment> mmap = plain(segs(k.mmap(4, true, false)));
    assertThat(mmap).noneMatch(g -> g.duration().meanNs() == entry);
    List<Segment> pw =
        plain(segs(k.madvise(MmapPaths.Advice.POPULATE_WRITE, 4, MmapPaths.Pages.ZERO)));
    assertThat(pw.get(0).duration().meanNs()).isEqualTo((double) populate);
    assertThat(pw).noneMatch(g -> g.duration().meanNs() == entry);
    assertThat(plain(segs(k.populateRead(4, MmapPaths.Pages.ABSENT))).get(0).duration().meanNs())
        .isEqualTo((double) populate);
    // the other read-lock advices pay the madvise entry alone
    assertThat(
            plain(segs(k.madvise(MmapPaths.Advice.WILLNEED, 1, MmapPaths.Pages.ANON)))
                .get(0)
                .duration()
                .meanNs())
        .isEqualTo((double) p(MmapCosts.MADVISE_ENTRY));
  }

  @Test
  void zapOfAPmdIsOnePteLockSpanOf512PtesFollowedByCondResched() {
    List<Segment> s = segs(new MmapPaths(CTX).munmap(PAGES, MmapPaths.Pages.ANON));
    double pmdZap = 512.0 * p(MmapCosts.ZAP_PER_PTE);
    List<Integer> zaps = new ArrayList<>();
    for (int i = 0; i < s.size(); i++) {
      if (s.get(i).lock() == null && s.get(i).duration().meanNs() == pmdZap) {
        zaps.add(i);
      }
    }
    assertThat(zaps).hasSize(16);
    for (int i : zaps) {
      assertThat(under(s, i, MmapPaths.PTL)).isTrue();
      assertThat(under(s, i, MmapPaths.MMAP_LOCK)).isTrue();
      assertThat(s.get(i - 1)).isEqualTo(Segment.lock(MmapPaths.PTL, false, false));
      assertThat(s.get(i + 1)).isEqualTo(Segment.unlock(MmapPaths.PTL));
      assertThat(s.get(i + 2).endsWith()).isEqualTo(COND); // cond_resched after the unlock
    }
    // each PMD: the preemptible loop step, then the PTL span; nothing else until cond_resched
    assertThat(condReschedGaps(s).get(1)).isEqualTo(pmdZap + p(MmapCosts.ZAP_PMD_STEP));
  }

  @Test
  void batchFreeEndsInCondReschedAfterEachGatherBatch() {
    List<Segment> s = segs(new MmapPaths(CTX).munmap(PAGES, MmapPaths.Pages.ANON));
    List<Double> gaps = condReschedGaps(s);
    double perPage = p(MmapCosts.FREE_LRU) + p(MmapCosts.FREE_OTHER) + p(MmapCosts.FREE_PCP);
    double perBatch = p(MmapCosts.FREE_BATCH_OTHER);
    double perHold = p(MmapCosts.FREE_BATCH_LRU); // one lru_lock hold per 32 folios
    // 16 PMD zaps, then the batches: the on-stack 8, sixteen of 510, and the last 24 pages
    assertThat(gaps).hasSize(16 + 18);
    assertThat(gaps.get(16)).isEqualTo(8 * perPage + perBatch + perHold + p(MmapCosts.TLB_FLUSH));
    assertThat(gaps.subList(17, 33)).allMatch(g -> g == 510 * perPage + perBatch + 16 * perHold);
    assertThat(gaps.get(33)).isEqualTo(24 * perPage + perBatch + perHold);
    // inside a batch: no voluntary point, lru_lock (IRQs off) held per 32 folios at most
    assertThat(s.stream().filter(g -> "MIGHT_RESCHED".equals(g.endsWith()))).hasSize(1);
    double longestLru = 0;
    for (int i = 0; i < s.size(); i++) {
      if (s.get(i).lock() == null && under(s, i, MmapPaths.LRU_LOCK)) {
        longestLru = Math.max(longestLru, s.get(i).duration().meanNs());
      }
    }
    assertThat(longestLru).isEqualTo(p(MmapCosts.FREE_BATCH_LRU) + 32.0 * p(MmapCosts.FREE_LRU));
    // release_pages takes folios off the LRU: lru_zone_size is the shared line it writes
    assertThat(s).contains(Segment.lock(MmapPaths.LRU_LOCK, true, false, 1));
    // zero-page PTEs gather nothing: only the per-PMD zap
    List<Segment> z = segs(new MmapPaths(CTX).munmap(PAGES, MmapPaths.Pages.ZERO));
    assertThat(condReschedGaps(z)).hasSize(16);
  }

  @Test
  void fullGatherForcesAFlushInsideAPmd() {
    long n = 20 * 512; // more than the 8 + 19 * 510 pages one mmu_gather holds
    List<Segment> s = plain(segs(new MmapPaths(CTX).munmap(n, MmapPaths.Pages.ANON)));
    long split = 8 + 19 * 510 - 18 * 512; // PTEs of PMD 19 zapped before the forced flush
    int at = -1;
    for (int i = 0; i < s.size(); i++) {
      if (s.get(i).duration().meanNs() == split * p(MmapCosts.ZAP_PER_PTE)) {
        at = i;
      }
    }
    assertThat(at).isPositive();
    assertThat(s.get(at).endsWith()).isEqualTo("NONE");
    assertThat(s.get(at + 1).duration().meanNs()).isEqualTo(p(MmapCosts.TLB_FLUSH));
    assertThat(condReschedGaps(s)).hasSize(20 + 20 + 3);
  }

  @Test
  void populateFaultsEveryPageInsideMmapWithCondReschedPerPage() {
    List<StepSpec> it = model(false, false).iteration(true, true);
    assertThat(it.get(0)).isInstanceOf(StepSpec.User.class);
    List<Segment> all = segs(it.get(1)); // one syscall: back to user after the last page
    List<Segment> mmap = plain(all);
    int clears = 0;
    int ptl = 0;
    for (Segment g : all) {
      if (g.lock() != null && g.lock().lock().equals(MmapPaths.PTL)) {
        ptl += g.lock().acquire() ? 1 : -1;
      } else if (g.lock() == null
          && g.cache() == null
          && ptl == 0
          && g.duration().meanNs() == p(MmapCosts.CLEAR_PAGE)
          && "NONE".equals(g.endsWith())) {
        clears++; // clear_page: preemptible, before the PTE is installed under the PTL
      }
    }
    assertThat(clears).isEqualTo((int) PAGES);
    assertThat(mmap.stream().filter(g -> COND.equals(g.endsWith()))).hasSize((int) PAGES);
    assertThat(condReschedGaps(mmap).stream().mapToDouble(Double::doubleValue).max().getAsDouble())
        .isLessThan(
            p(MmapCosts.PTE_ALLOC)
                + p(MmapCosts.FAULT_ANON)
                + p(MmapCosts.CLEAR_PAGE)
                + p(MmapCosts.PTE_INSTALL)
                + p(MmapCosts.PCP_ALLOC)
                + p(MmapCosts.GUP_STEP)
                + p(MmapCosts.MMAP_VMA)
                + 1);
    assertThat(it.get(2)).isInstanceOf(StepSpec.User.class);
    // without populate mmap is the VMA part only and MADV_POPULATE_READ maps the zero page
    List<StepSpec> plain = model(false, false).iteration(false, false);
    assertThat(plain(segs(plain.get(1)))).hasSize(1);
    assertThat(
            segs(plain.get(3)).stream()
                .filter(g -> g.duration().meanNs() == p(MmapCosts.ZERO_FAULT)))
        .hasSize((int) PAGES);
  }

  /** Items of a program as built (loops counted once), not as run. */
  private static long items(List<StepSpec> p) {
    long n = 0;
    for (StepSpec s : p) {
      n++;
      if (s instanceof StepSpec.Loop l) {
        n += items(l.body());
      } else if (s instanceof StepSpec.Syscall sc) {
        n += items(sc.parts());
      } else if (s instanceof StepSpec.Kernel k) {
        n += k.segments().size();
      }
    }
    return n;
  }

  @Test
  void pathsAreAsLargeAsTheirStepsNotAsTheirPages() {
    MmapPaths k = new MmapPaths(CTX);
    long big = 1L << 20; // 4 GB
    for (MmapPaths.Pages st : MmapPaths.Pages.values()) {
      assertThat(items(List.of(k.populateRead(big, st))))
          .isEqualTo(items(List.of(k.populateRead(PAGES, st))));
      assertThat(segs(k.populateRead(big, st)).stream().filter(g -> COND.equals(g.endsWith())))
          .hasSize((int) big);
    }
    assertThat(items(List.of(k.mmap(big, true, false))))
        .isEqualTo(items(List.of(k.mmap(PAGES, true, false))));
    assertThat(items(List.of(k.mprotect(big)))).isEqualTo(items(List.of(k.mprotect(PAGES))));
    assertThat(items(List.of(k.munmap(big, MmapPaths.Pages.ZERO))))
        .isEqualTo(items(List.of(k.munmap(PAGES, MmapPaths.Pages.ZERO))));
    // anonymous pages: a few items per mmu_gather flush (every 9698 pages), none per page
    assertThat(items(List.of(k.munmap(big, MmapPaths.Pages.ANON)))).isLessThan(big / 100);
    // the default worker of a 8-CPU machine (32 MB) and of a 1-CPU one (256 MB): same order
    MmapModel.Options o = new MmapModel.Options(false, false, false, false);
    assertThat(items(MmapModel.worker(CTX, 256L << 20, o, 1).program()))
        .isLessThan(3 * items(MmapModel.worker(CTX, PAGES * 4096, o, 1).program()));
  }

  @Test
  void writeCheckLeavesAnonymousPagesForStep3ToFree() {
    assertThat(freesPages(model(false, false).iteration(false, false))).isFalse();
    assertThat(freesPages(model(false, true).iteration(false, false))).isTrue();
  }

  private static boolean freesPages(List<StepSpec> it) {
    return flatten(it).stream()
        .filter(MmapModelTest::isKernelPath)
        .map(MmapModelTest::segs)
        .anyMatch(
            k ->
                k.contains(Segment.lock(MmapPaths.LRU_LOCK, true, false, 1))
                    && k.stream()
                        .anyMatch(
                            g ->
                                g.lock() == null
                                    && g.duration().meanNs()
                                        == p(MmapCosts.FREE_BATCH_LRU)
                                            + 32.0 * p(MmapCosts.FREE_LRU)));
  }

  @Test
  void firstHugetlbFailureDropsPopulateForGood() {
    List<StepSpec> prog =
        MmapModel.worker(CTX, PAGES * 4096, new MmapModel.Options(false, false, false, false), 42)
            .program();
    StepSpec last = prog.get(prog.size() - 1);
    assertThat(last).isInstanceOf(StepSpec.Loop.class);
    // in the repeated part no step-2 one-page mmap (MAP_FIXED) populates any more
    assertThat(
            flatten(((StepSpec.Loop) last).body()).stream()
                .filter(MmapModelTest::isKernelPath)
                .map(s -> plain(segs(s)))
                .filter(
                    k ->
                        k.get(0).duration().meanNs() == p(MmapCosts.MMAP_FIXED_VMA)
                            && k.size() > 1))
        .isEmpty();
  }

  private static MmapModel model(boolean mprotect, boolean writeCheck) {
    return MmapModel.forTest(
        CTX, PAGES * 4096, new MmapModel.Options(mprotect, false, writeCheck, false));
  }

  private static List<StepSpec> flatten(List<StepSpec> p) {
    List<StepSpec> out = new ArrayList<>();
    for (StepSpec s : p) {
      if (s instanceof StepSpec.Loop l) {
        out.addAll(flatten(l.body()));
      } else {
        out.add(s);
      }
    }
    return out;
  }

  /** The maple nodes a path frees through kfree_rcu() (puts into the rcu_free sheaf). */
  private static int mapleNodesFreed(List<Segment> s) {
    int nodes = 0;
    for (int i = 0; i < s.size(); i++) {
      StepSpec.CacheAction c = s.get(i).cache();
      if (c != null && s.get(i + 1).rcu() != null) {
        assertThat(c.put()).isTrue();
        assertThat(c.high()).isEqualTo(p(MmapCosts.RCU_SHEAF_CAPACITY)); // a full sheaf ...
        assertThat(s.get(i + 1).rcu()) // ... is one rcu_free_sheaf() callback
            .isEqualTo(new StepSpec.RcuAction(1, p(MmapCosts.RCU_FREE_SHEAF)));
        nodes += c.count();
      }
    }
    return nodes;
  }

  private static long tableCallbacks(List<Segment> s) {
    return s.stream()
        .filter(g -> g.rcu() != null && g.rcu().costNs() == p(MmapCosts.TLB_REMOVE_TABLE_RCU))
        .count();
  }

  @Test
  void vmaTreeStoresFreeTheirReplacedNodesThroughKfreeRcu() {
    MmapPaths k = new MmapPaths(CTX);
    // a one-page munmap inside its VMA: the split's store and the removal's store
    assertThat(mapleNodesFreed(segs(k.munmap(1, MmapPaths.Pages.ANON, 1)))).isEqualTo(2);
    assertThat(mapleNodesFreed(segs(k.munmap(1, MmapPaths.Pages.ANON, 0)))).isEqualTo(1);
    assertThat(mapleNodesFreed(segs(k.mmap(1, false, true)))).isEqualTo(1);
    // a flag-changing madvise that splits the page off twice
    assertThat(
            mapleNodesFreed(segs(k.madvise(MmapPaths.Advice.HUGEPAGE, 1, MmapPaths.Pages.ANON, 2))))
        .isEqualTo(2);
    assertThat(mapleNodesFreed(segs(k.populateRead(PAGES, MmapPaths.Pages.ANON)))).isZero();
  }

  @Test
  void aMunmapOfWholePmdsQueuesOneTableFreeCallback() {
    MmapPaths k = new MmapPaths(CTX);
    assertThat(tableCallbacks(segs(k.munmap(PAGES, MmapPaths.Pages.ANON)))).isEqualTo(1);
    assertThat(tableCallbacks(segs(k.munmap(1, MmapPaths.Pages.ANON, 0)))).isZero();
  }
}
