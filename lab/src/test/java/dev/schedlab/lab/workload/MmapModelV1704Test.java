package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThatCode;

import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.lab.scenario.LockCheck;
import dev.schedlab.lab.workload.MmapPaths.Advice;
import dev.schedlab.lab.workload.MmapPaths.Pages;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class MmapModelV1704Test {
  private static final ToolContext CTX = new ToolContext("stress-ng", null, 0, Map.of());
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
    List<StepSpec> prog = MmapModel.program(CTX, PAGES * 4096, V1704, 7);
    assertThatCode(() -> LockCheck.check(prog, LOCKS)).doesNotThrowAnyException();
  }
}
