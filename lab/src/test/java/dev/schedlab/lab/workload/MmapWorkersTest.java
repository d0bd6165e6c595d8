package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.StepSpec.Segment;
import dev.schedlab.lab.scenario.LockCheck;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The mmap workers of one stress-ng instance are built by one model: each runs what a lone worker
 * of its seed runs, and their programs share one instance of every kernel path (with the V0.17.04
 * layout one program, the workers' draws apart), which the program compiler and the lock check then
 * handle once.
 */
class MmapWorkersTest {
  private static final ToolContext CTX =
      new ToolContext("stress-ng", PcpHighTest.MACHINE_64, 0, Map.of());
  private static final long BYTES = 1024 * 4096;
  private static final Map<String, LockSpec> LOCKS =
      MmapPaths.LOCKS.stream().collect(Collectors.toMap(LockSpec::name, Function.identity()));

  /** The syscalls, kernel paths and loops of {@code program}, by identity. */
  private static Set<StepSpec> composites(List<StepSpec> program) {
    Set<StepSpec> out = Collections.newSetFromMap(new IdentityHashMap<>());
    collect(program, out);
    return out;
  }

  private static void collect(List<StepSpec> steps, Set<StepSpec> out) {
    for (StepSpec s : steps) {
      if (s instanceof StepSpec.Loop l) {
        out.add(s);
        collect(l.body(), out);
      } else if (s instanceof StepSpec.Pick p) {
        out.add(s);
        p.choices().forEach(c -> collect(c, out));
      } else if (s instanceof StepSpec.Syscall sc) {
        out.add(s);
        collect(sc.parts(), out);
      } else if (s instanceof StepSpec.Kernel) {
        out.add(s);
      }
    }
  }

  @Test
  void workersRunWhatTheLoneWorkersRunAndShareTheirPaths() {
    for (boolean v1704 : new boolean[] {false, true}) {
      MmapModel.Options opt = new MmapModel.Options(false, false, false, v1704);
      List<MmapModel.Worker> ws = MmapModel.workers(CTX, BYTES, opt).workers(List.of(1L, 2L));
      MmapModel.Worker a = ws.get(0);
      MmapModel.Worker b = ws.get(1);
      assertThat(MmapModelTest.onePass(a))
          .isEqualTo(MmapModelTest.onePass(MmapModel.worker(CTX, BYTES, opt, 1)));
      assertThat(MmapModelTest.onePass(b))
          .isEqualTo(MmapModelTest.onePass(MmapModel.worker(CTX, BYTES, opt, 2)));
      assertThat(MmapModelTest.onePass(b)).isNotEqualTo(MmapModelTest.onePass(a)); // the draws
      Set<StepSpec> ofA = composites(a.program());
      List<StepSpec> shared = new ArrayList<>(composites(b.program()));
      shared.retainAll(ofA); // equal ones (List.retainAll compares by value)
      long sameInstance = shared.stream().filter(ofA::contains).count();
      assertThat(shared).isNotEmpty();
      assertThat(sameInstance).as("V0.17.04 layout: %s", v1704).isEqualTo(shared.size());
    }
  }

  @Test
  void withTheV1704LayoutTheWorkersShareOneProgramAndDifferInTheirDraws() {
    MmapModel.Options opt = new MmapModel.Options(false, false, false, true);
    List<MmapModel.Worker> ws = MmapModel.workers(CTX, BYTES, opt).workers(List.of(1L, 2L, 3L));
    assertThat(ws).allSatisfy(w -> assertThat(w.program()).isSameAs(ws.get(0).program()));
    assertThat(ws.get(1).draws()).isNotEqualTo(ws.get(0).draws());
    // a region of 1024 pages over 32 drawn advices: no pages left over
    assertThat(ws.get(0).draws().get(MmapModelV1704.PER_PAGE.get(0))).hasSize(32);
    assertThat(ws.get(0).draws().get(MmapModelV1704.PER_PAGE_REST.get(0))).isEmpty();
  }

  @Test
  void theLockCheckStillReportsAPathNotCheckedBefore() {
    Set<StepSpec> checked = LockCheck.newCheckedSet();
    List<StepSpec> good =
        MmapModel.worker(CTX, BYTES, new MmapModel.Options(false, false, false, true), 3).program();
    LockCheck.check(good, LOCKS, checked);
    assertThat(checked).isNotEmpty();
    StepSpec bad =
        new StepSpec.Kernel(
            List.of(
                Segment.lock(MmapPaths.ZONE_LOCK, false, false),
                new Segment(Dist.fixed(10), true, false, "NONE")));
    List<StepSpec> badProgram = new ArrayList<>(good);
    badProgram.add(bad);
    assertThatThrownBy(() -> LockCheck.check(badProgram, LOCKS, checked))
        .hasMessageContaining(MmapPaths.ZONE_LOCK);
  }
}
