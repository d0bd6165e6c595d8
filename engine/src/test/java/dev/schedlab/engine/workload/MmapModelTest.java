package dev.schedlab.engine.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.scenario.StepSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MmapModelTest {
  private static final ToolContext CTX = new ToolContext("stress-ng", null, 0, Map.of());
  private static final long PAGES = 8192; // 32 MB: 256 MB / 8 workers

  private static List<StepSpec.Segment> segs(StepSpec s) {
    return ((StepSpec.Kernel) s).segments();
  }

  private static List<StepSpec.Kernel> kernels(List<StepSpec> prog) {
    List<StepSpec.Kernel> out = new ArrayList<>();
    for (StepSpec s : prog) {
      if (s instanceof StepSpec.Kernel k) {
        out.add(k);
      }
    }
    return out;
  }

  @Test
  void munmapCondReschedSpacingIs512PagesOfZapOrFree() {
    MmapModel m = model(false);
    List<StepSpec.Segment> s = segs(m.munmap(PAGES, MmapModel.Pages.ANON));
    long zap = CTX.param(MmapModel.ZAP_PER_PTE);
    long free = CTX.param(MmapModel.FREE_LRU) + CTX.param(MmapModel.FREE_PCP) + CTX.param(MmapModel.FREE_OTHER);
    List<Double> gaps = new ArrayList<>();
    List<Double> locked = new ArrayList<>();
    double acc = 0;
    double lockedAcc = 0;
    for (StepSpec.Segment g : s) {
      acc += g.duration().meanNs();
      if (!g.preemptible()) {
        lockedAcc += g.duration().meanNs();
      } else {
        if (lockedAcc > 0) {
          locked.add(lockedAcc);
        }
        lockedAcc = 0;
      }
      if ("COND_RESCHED".equals(g.endsWith())) {
        gaps.add(acc);
        acc = 0;
      }
    }
    // 16 PMDs zapped, each a PTL-held span of 512 PTEs then cond_resched; then 16 free chunks
    assertThat(gaps).hasSize(32);
    long pmdStep = CTX.param(MmapModel.ZAP_PMD_STEP);
    assertThat(gaps.get(1)).isEqualTo(512.0 * zap + pmdStep);
    assertThat(locked.get(0)).isEqualTo(512.0 * zap);
    assertThat(gaps.get(31)).isEqualTo(512.0 * free);
    // no span under a lock is longer than one PMD's zap
    assertThat(locked).allMatch(v -> v <= 512.0 * zap + CTX.param(MmapModel.TLB_FLUSH));
    // the zero-page state gathers nothing: only the per-PMD zap
    List<StepSpec.Segment> z = segs(m.munmap(PAGES, MmapModel.Pages.ZERO));
    assertThat(z.stream().filter(g -> "COND_RESCHED".equals(g.endsWith()))).hasSize(16);
  }

  @Test
  void mapPopulateFaultsHappenInsideMmapWithCondReschedPerPage() {
    List<StepSpec> it = model(false).iteration(true, true);
    StepSpec.Kernel mmap = kernels(it).get(0);
    long clears = mmap.segments().stream()
        .filter(g -> g.duration().meanNs() == CTX.param(MmapModel.CLEAR_PAGE) && "NONE".equals(g.endsWith())).count();
    long conds = mmap.segments().stream().filter(g -> "COND_RESCHED".equals(g.endsWith())).count();
    assertThat(clears).isEqualTo(PAGES);
    assertThat(conds).isEqualTo(PAGES);
    // without populate (after MAP_POPULATE was dropped) mmap is only the VMA part and the pages
    // are mapped to the zero page by MADV_POPULATE_READ
    List<StepSpec> plain = model(false).iteration(false, false);
    assertThat(kernels(plain).get(0).segments()).hasSize(1);
    assertThat(kernels(plain).get(1).segments().stream()
        .filter(g -> g.duration().meanNs() == CTX.param(MmapModel.ZERO_FAULT))).hasSize((int) PAGES);
  }

  @Test
  void noLockedSegmentEndsWithAPreemptionPoint() {
    // ENGINE-REQUESTS-003 R2: a locked segment's ends point would hide its preempt_enable()
    for (StepSpec.Kernel k : kernels(flatten(model(true).iteration(true, true)))) {
      assertThat(k.segments()).allMatch(g -> g.preemptible() || "NONE".equals(g.endsWith()));
    }
  }

  @Test
  void firstHugetlbFailureDropsPopulateForGood() {
    List<StepSpec> prog = MmapModel.program(CTX, PAGES * 4096, new MmapModel.Options(false, false), 42);
    StepSpec last = prog.get(prog.size() - 1);
    assertThat(last).isInstanceOf(StepSpec.Loop.class);
    // in the repeated part no step-2 one-page mmap (MAP_FIXED) populates any more
    assertThat(flatten(((StepSpec.Loop) last).body()).stream()
        .filter(s -> s instanceof StepSpec.Kernel k && k.segments().size() <= 8
            && k.segments().stream().anyMatch(g -> g.duration().meanNs() == CTX.param(MmapModel.MMAP_FIXED_VMA))
            && k.segments().stream().anyMatch(g -> g.duration().meanNs() == CTX.param(MmapModel.CLEAR_PAGE))))
        .isEmpty();
  }

  private static MmapModel model(boolean mprotect) {
    return MmapModel.forTest(CTX, PAGES * 4096, new MmapModel.Options(mprotect, false));
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
}
