package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** {@link CpuMasks} answers as {@link BitSet} does for the same set, at every word boundary. */
class CpuMasksTest {
  private static final int CPUS = 200; // four words, the last one partial

  @Property
  void nextTestAndWeightMatchBitSet(
      @ForAll @Size(max = 60) java.util.List<@IntRange(min = 0, max = CPUS - 1) Integer> cpus,
      @ForAll @IntRange(min = 0, max = CPUS + 70) int from,
      @ForAll @IntRange(min = 0, max = CPUS + 70) int to) {
    BitSet set = new BitSet();
    long[] mask = CpuMasks.ofSize(CPUS);
    for (int c : cpus) {
      set.set(c);
      CpuMasks.assign(mask, c, true);
    }
    assertThat(CpuMasks.next(mask, from)).isEqualTo(set.nextSetBit(from));
    assertThat(CpuMasks.weight(mask, from, to))
        .isEqualTo(from >= to ? 0 : set.get(from, to).cardinality());
    for (int c = 0; c < CPUS; c++) {
      assertThat(CpuMasks.test(mask, c)).isEqualTo(set.get(c));
    }
  }

  @Property
  void nextAndIsTheFirstCpuOfTheIntersection(
      @ForAll @Size(max = 60) java.util.List<@IntRange(min = 0, max = CPUS - 1) Integer> a,
      @ForAll @Size(max = 60) java.util.List<@IntRange(min = 0, max = CPUS - 1) Integer> b,
      @ForAll @IntRange(min = 0, max = CPUS + 70) int from) {
    BitSet both = new BitSet();
    BitSet sb = new BitSet();
    long[] ma = CpuMasks.ofSize(CPUS);
    long[] mb = CpuMasks.ofSize(CPUS);
    for (int c : a) {
      both.set(c);
      CpuMasks.assign(ma, c, true);
    }
    for (int c : b) {
      sb.set(c);
      CpuMasks.assign(mb, c, true);
    }
    both.and(sb);
    assertThat(CpuMasks.nextAnd(ma, mb, from)).isEqualTo(both.nextSetBit(from));
  }

  @Property
  void clearingUndoesSetting(@ForAll @IntRange(min = 0, max = CPUS - 1) int cpu) {
    long[] mask = CpuMasks.ofSize(CPUS);
    CpuMasks.assign(mask, cpu, true);
    CpuMasks.assign(mask, cpu, false);
    assertThat(CpuMasks.next(mask, 0)).isEqualTo(-1);
  }
}
