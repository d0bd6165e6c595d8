package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.StepSpec.Segment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class KernelPathTest {
  private static final Segment A = new Segment(Dist.fixed(10), true, false, "NONE");
  private static final Segment B = new Segment(Dist.fixed(20), true, false, "COND_RESCHED");
  private static final Segment C = new Segment(Dist.fixed(30), false, false, "NONE");

  private static KernelPath of(Segment... s) {
    return new KernelPath().add(s);
  }

  @Test
  void identicalChunksInARowBecomeOneLoop() {
    KernelPath p = new KernelPath().add(A).repeat(3, of(B)).repeat(2, of(B)).then(of(C));
    assertThat(p.parts())
        .containsExactly(
            new StepSpec.Kernel(List.of(A)),
            new StepSpec.Loop(5, List.of(new StepSpec.Kernel(List.of(B)))),
            new StepSpec.Kernel(List.of(C)));
  }

  @Test
  void aChunkOnceOrNeverIsWrittenInline() {
    KernelPath p = new KernelPath().add(A).then(of(B)).repeat(0, of(C)).add(A);
    assertThat(p.syscall()).isEqualTo(new StepSpec.Kernel(List.of(A, B, A)));
  }

  @Test
  void nestedLoopsUnrollToTheSegmentsInOrder() {
    KernelPath pmd = new KernelPath().add(A).repeat(511, of(B, C));
    KernelPath p = new KernelPath().add(C).repeat(4, pmd).then(pmd).add(A);
    List<Segment> expected = new ArrayList<>(List.of(C));
    for (int i = 0; i < 5; i++) {
      expected.add(A);
      for (int j = 0; j < 511; j++) {
        expected.addAll(List.of(B, C));
      }
    }
    expected.add(A);
    assertThat(MmapModelTest.segs(p.syscall())).isEqualTo(expected);
    assertThat(p.parts()).hasSize(3); // C, the loop of 5 PMDs, A
    assertThat(Collections.frequency(MmapModelTest.segs(p.syscall()), B)).isEqualTo(5 * 511);
  }
}
