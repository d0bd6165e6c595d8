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
 * The mmap workers of one stress-ng instance are built by one model: each gets the program a lone
 * worker of its seed gets, and their programs share one instance of every kernel path, which the
 * program compiler and the lock check then handle once.
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
      } else if (s instanceof StepSpec.Syscall sc) {
        out.add(s);
        collect(sc.parts(), out);
      } else if (s instanceof StepSpec.Kernel) {
        out.add(s);
      }
    }
  }

  @Test
  void workersGetTheLoneWorkersProgramsAndShareTheirPaths() {
    for (boolean v1704 : new boolean[] {false, true}) {
      MmapModel.Options opt = new MmapModel.Options(false, false, false, v1704);
      MmapModel workers = MmapModel.workers(CTX, BYTES, opt);
      List<StepSpec> a = workers.program(1);
      List<StepSpec> b = workers.program(2);
      assertThat(a).isEqualTo(MmapModel.program(CTX, BYTES, opt, 1));
      assertThat(b).isEqualTo(MmapModel.program(CTX, BYTES, opt, 2));
      assertThat(b).isNotEqualTo(a); // the flag draws differ
      Set<StepSpec> ofA = composites(a);
      List<StepSpec> shared = new ArrayList<>(composites(b));
      shared.retainAll(ofA); // equal ones (List.retainAll compares by value)
      long sameInstance = shared.stream().filter(ofA::contains).count();
      assertThat(shared).isNotEmpty();
      assertThat(sameInstance).as("V0.17.04 layout: %s", v1704).isEqualTo(shared.size());
    }
  }

  @Test
  void theLockCheckStillReportsAPathNotCheckedBefore() {
    Set<StepSpec> checked = LockCheck.newCheckedSet();
    List<StepSpec> good =
        MmapModel.workers(CTX, BYTES, new MmapModel.Options(false, false, false, true)).program(3);
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
