package dev.schedlab.classes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.classes.fixture.FakeTask;
import java.util.BitSet;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The cpudl max-heap against a brute-force scan of the CPUs' earliest deadlines. */
class CpuDeadlineTest {
  private static final int CPUS = 12;

  @Test
  void theTopIsAlwaysTheLatestEarliestDeadlineAndFindFollowsCpudlFind() {
    BitSet span = new BitSet();
    span.set(0, CPUS);
    CpuDeadline heap = new CpuDeadline(CPUS, span);
    long[] dl = new long[CPUS];
    boolean[] set = new boolean[CPUS];
    Random r = new Random(42);
    BitSet later = new BitSet();
    for (int step = 0; step < 20_000; step++) {
      int cpu = r.nextInt(CPUS);
      if (r.nextInt(3) == 0) {
        heap.clear(cpu);
        set[cpu] = false;
      } else {
        dl[cpu] = Long.MAX_VALUE - 500 + r.nextInt(1000); // wraps: compared as signed differences
        heap.set(cpu, dl[cpu]);
        set[cpu] = true;
      }
      int max = -1;
      for (int c = 0; c < CPUS; c++) {
        if (set[c] && (max < 0 || dl[max] - dl[c] < 0)) {
          max = c;
        }
        assertThat(heap.isFree(c)).isEqualTo(!set[c]);
      }
      int top = heap.maximum();
      assertThat(top < 0 ? -1 : heap.deadlineOf(top)).isEqualTo(max < 0 ? -1 : dl[max]);

      FakeTask p = FakeTask.dl(1, 1, 10, 10);
      p.allowedMask = r.nextInt(1 << CPUS);
      long mine = Long.MAX_VALUE - 500 + r.nextInt(1000);
      boolean found = heap.find(p, mine, later);
      BitSet freeAllowed = new BitSet();
      for (int c = 0; c < CPUS; c++) {
        if (!set[c] && p.allowedOn(c)) {
          freeAllowed.set(c);
        }
      }
      if (!freeAllowed.isEmpty()) {
        assertThat(found).isTrue();
        assertThat(later).isEqualTo(freeAllowed);
      } else {
        boolean topFits = top >= 0 && p.allowedOn(top) && mine - heap.deadlineOf(top) < 0;
        assertThat(found).isEqualTo(topFits);
        if (found) {
          assertThat(later.cardinality()).isEqualTo(1);
          assertThat(later.get(top)).isTrue();
        }
      }
    }
  }
}
