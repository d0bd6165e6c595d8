package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.StepSpec.Segment;
import dev.schedlab.lab.scenario.LockCheck;
import dev.schedlab.lab.scenario.ScenarioException;
import dev.schedlab.lab.workload.MmapPaths.Advice;
import dev.schedlab.lab.workload.MmapPaths.Pages;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class MmapModelV1704Test {
  private static final ToolContext CTX =
      new ToolContext("stress-ng", PcpHighTest.MACHINE_64, 0, Map.of());
  private static final long PAGES = 1024; // 4 MB: 256 MB / 64 workers
  private static final Map<String, LockSpec> LOCKS =
      MmapPaths.LOCKS.stream().collect(Collectors.toMap(LockSpec::name, Function.identity()));
  private static final MmapModel.Options V1704 = new MmapModel.Options(false, false, false, true);

  @Test
  void everyAdvicePathReleasesItsSpinlocks() {
    MmapPaths k = new MmapPaths(CTX);
    for (Advice a : Advice.values()) {
      for (Pages st : Pages.values()) {
        for (long n : new long[] {1, 33, PAGES}) {
          StepSpec path = k.madvise(a, n, st);
          assertThatCode(() -> LockCheck.check(List.of(path), LOCKS))
              .as("%s over %d %s pages", a, n, st)
              .doesNotThrowAnyException();
        }
      }
    }
  }

  @Test
  void theWholeProgramPassesTheLockRules() {
    List<StepSpec> prog = MmapModel.worker(CTX, PAGES * 4096, V1704, 7).program();
    assertThatCode(() -> LockCheck.check(prog, LOCKS)).doesNotThrowAnyException();
  }

  /** A kernel path unrolled: its segments in order. */
  private static List<Segment> segs(StepSpec s) {
    return MmapModelTest.segs(s);
  }

  private static long count(List<Segment> s, Segment item) {
    return s.stream().filter(item::equals).count();
  }

  // lru_lock taken to take a folio off the LRU (one shared line written: lru_zone_size) and to
  // put folios on it (three: the list head, the folio it pointed to, lru_zone_size)
  private static final Segment LRU_DEL = Segment.lock(MmapPaths.LRU_LOCK, true, false, 1);
  private static final Segment LRU_ADD = Segment.lock(MmapPaths.LRU_LOCK, true, false, 3);
  private static final Segment PTL = Segment.lock(MmapPaths.PTL, false, false);
  private static final Segment MMAP_WRITE = Segment.lock(MmapPaths.MMAP_LOCK, false, false);
  private static final Segment MMAP_READ = Segment.lock(MmapPaths.MMAP_LOCK, false, true);

  @Test
  void adviceKernelPathsFollowMmMadvise() {
    MmapPaths k = new MmapPaths(CTX);
    // VMA-flag advices: mmap_lock for writing, no page-table work
    for (Advice a : List.of(Advice.NORMAL, Advice.DONTFORK, Advice.HUGEPAGE, Advice.MERGEABLE)) {
      List<Segment> s = segs(k.madvise(a, PAGES, Pages.ANON));
      assertThat(s).as("%s", a).contains(MMAP_WRITE).doesNotContain(PTL, LRU_DEL, LRU_ADD);
    }
    // PAGEOUT isolates every present folio under lru_lock; COLD only drains its batch of 15
    List<Segment> pageout = segs(k.madvise(Advice.PAGEOUT, PAGES, Pages.ANON));
    assertThat(pageout).contains(MMAP_READ).doesNotContain(MMAP_WRITE);
    // an isolation per folio, and per folio the putback's guarded drain (run 1 in 15)
    assertThat(count(pageout, LRU_DEL)).isEqualTo(PAGES);
    assertThat(count(pageout, LRU_ADD)).isEqualTo(PAGES);
    List<Segment> cold = segs(k.madvise(Advice.COLD, PAGES, Pages.ANON));
    assertThat(count(cold, LRU_ADD)).isEqualTo(PAGES); // one guarded drain per folio, 1 in 15
    assertThat(count(cold, LRU_DEL)).isZero();
    assertThat(cold.stream().filter(g -> g.cache() != null).count()).isEqualTo(PAGES);
    // the zero page is no folio: nothing to isolate; absent pages: no page-table lock
    assertThat(segs(k.madvise(Advice.PAGEOUT, PAGES, Pages.ZERO))).doesNotContain(LRU_DEL, LRU_ADD);
    assertThat(segs(k.madvise(Advice.COLD, PAGES, Pages.ABSENT))).doesNotContain(PTL);
    // POPULATE_WRITE over zero-page PTEs copies each page (allocation, lru_add)
    List<Segment> popw = segs(k.madvise(Advice.POPULATE_WRITE, 4, Pages.ZERO));
    assertThat(popw.stream().filter(g -> g.cache() != null && "pcp".equals(g.cache().cache())))
        .hasSize(4);
    assertThat(Advice.POPULATE_WRITE.after(Pages.ZERO)).isEqualTo(Pages.ANON);
    assertThat(Advice.POPULATE_READ.after(Pages.ABSENT)).isEqualTo(Pages.ZERO);
    assertThat(Advice.PAGEOUT.after(Pages.ANON)).isEqualTo(Pages.ANON); // no swap
  }

  @Test
  void pageoutScanGivesNeedReschedAChanceEvery32Ptes() {
    List<Segment> s = segs(new MmapPaths(CTX).madvise(Advice.PAGEOUT, 512, Pages.ANON));
    int held = 0;
    int longest = 0;
    for (Segment g : s) {
      if (PTL.equals(g)) {
        held = 0;
      } else if (g.lock() == null && g.cache() == null && g.duration().meanNs() > 0) {
        held++;
      }
      if ("COND_RESCHED".equals(g.endsWith())) {
        longest = Math.max(longest, held);
        held = 0;
      }
    }
    assertThat(longest).isBetween(32, 2 * 32); // a folio's scan and isolation, 32 per chunk
  }

  /** The steady loop's steps, loops unrolled and picks resolved: one pass over the sequence. */
  private static List<StepSpec> steadyPass() {
    MmapModel.Worker w = MmapModel.worker(CTX, PAGES * 4096, V1704, 7);
    StepSpec last = w.program().get(w.program().size() - 1);
    assertThat(last).isInstanceOf(StepSpec.Loop.class);
    return MmapModelTest.run(((StepSpec.Loop) last).body(), w.draws());
  }

  @Test
  void everyAttemptFreesEachPageTwiceEachByItsOwnMunmap() {
    List<StepSpec> pass = steadyPass();
    StepSpec oneAnonPage = new MmapPaths(CTX).munmap(1, Pages.ANON, 0);
    StepSpec oneAnonPageSplit = new MmapPaths(CTX).munmap(1, Pages.ANON, 1);
    long attempts =
        pass.stream()
            .filter(
                st ->
                    st.equals(new MmapPaths(CTX).mmap(PAGES, false, false))
                        || st.equals(new MmapPaths(CTX).mmap(PAGES, true, false))) // MAP_LOCKED
            .count();
    long frees =
        pass.stream().filter(st -> st.equals(oneAnonPage) || st.equals(oneAnonPageSplit)).count();
    assertThat(attempts).isEqualTo(CTX.param(MmapCosts.STEADY_ATTEMPTS));
    assertThat(frees).isEqualTo(2 * PAGES * attempts);
    // ...and filled in the region pass and in step 2: a write fault on each zero-page PTE (the
    // region is already anonymous after MAP_LOCKED or MADV_POPULATE_WRITE, a page after the latter)
    long faults =
        pass.stream().filter(st -> st.equals(new MmapPaths(CTX).writeFault(Pages.ZERO))).count();
    assertThat(faults).isGreaterThan(PAGES * attempts).isLessThanOrEqualTo(2 * PAGES * attempts);
  }

  @Test
  void eachUnmappedPageSplitsItsVmaOnceInTheFlagChangingMadviseOrElseInTheMunmap() {
    MmapPaths k = new MmapPaths(CTX);
    StepSpec whole = k.munmap(1, Pages.ANON, 0);
    StepSpec split = k.munmap(1, Pages.ANON, 1);
    assertThat(split).isNotEqualTo(whole);
    List<StepSpec> pass = steadyPass();
    int checked = 0;
    Set<Boolean> kinds = new HashSet<>();
    for (int i = 2; i < pass.size(); i++) {
      StepSpec st = pass.get(i);
      if (!st.equals(whole) && !st.equals(split)) {
        continue;
      }
      StepSpec advice = pass.get(i - 2); // the page's random madvise, then user time, then munmap
      Advice a =
          Arrays.stream(Advice.values())
              .filter(x -> advice.equals(k.madvise(x, 1, Pages.ANON, x.changesFlags() ? 1 : 0)))
              .findFirst()
              .orElseThrow();
      assertThat(st).isEqualTo(a.changesFlags() ? whole : split);
      kinds.add(a.changesFlags());
      checked++;
    }
    assertThat(checked).isGreaterThan((int) PAGES);
    assertThat(kinds).containsExactlyInAnyOrder(true, false);
    // a flag change splits (one __split_vma, ending at a might_sleep point); a no-op does not
    assertThat(k.madvise(Advice.SEQUENTIAL, 1, Pages.ANON, 1))
        .isNotEqualTo(k.madvise(Advice.SEQUENTIAL, 1, Pages.ANON, 0));
    assertThat(k.madvise(Advice.NORMAL, 1, Pages.ANON, 1))
        .isEqualTo(k.madvise(Advice.NORMAL, 1, Pages.ANON, 0));
  }

  @Test
  void noMmapFailsOnceHugetlbIsMaskedSoTheWorkerNeverSleeps() {
    List<StepSpec> all = MmapModelTest.onePass(MmapModel.worker(CTX, PAGES * 4096, V1704, 7));
    assertThat(all).noneMatch(st -> st instanceof StepSpec.Sleep);
    // the later layout sleeps 100 ms after two failures in a row, with the same draws somewhere
    long failures =
        all.stream()
            .filter(
                st ->
                    st instanceof StepSpec.Kernel kk
                        && kk.segments().size() == 1
                        && kk.segments().get(0).duration().meanNs()
                            >= CTX.param(MmapCosts.MMAP_FAIL) / 2.0
                        && kk.segments().get(0).duration().meanNs()
                            == CTX.param(MmapCosts.MMAP_FAIL))
            .count();
    assertThat(failures).isBetween(1L, 2L);
  }

  @Test
  void optionsOfLaterReleasesAreRejectedWithVersion1704() {
    for (String opt : List.of("--mmap-write-check", "--mmap-slow-munmap")) {
      String yaml =
          ToolRunner.tiny(2, "10ms", "stress-ng", "--mmap 1 " + opt)
              .replace(
                  "stress-ng: \"--mmap 1 " + opt + "\"",
                  "stress-ng: {args: \"--mmap 1 " + opt + "\", params: {version: 1704}}");
      assertThatThrownBy(() -> ToolRunner.load(yaml))
          .as(opt)
          .isInstanceOf(ScenarioException.class)
          .hasMessageContaining("V0.17.05");
    }
  }
}
