package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MmTest {
  /** Up to 128 CPUs every slot exists from the start; beyond, slots appear as CPUs are used. */
  @Test
  void slotsBehaveAlikeWhetherMadeUpFrontOrOnUse() {
    for (int cpus : new int[] {8, 128, 512}) {
      Mm mm = new Mm(1, 0, cpus);
      assertThat(mm.nextAllocated(0)).as("%d CPUs", cpus).isEqualTo(-1);
      assertThat(mm.lastUsed(cpus - 1)).isZero();
      mm.used(cpus - 1, 500);
      mm.used(3, 700);
      mm.used(3, 900); // the same cid again: still one
      assertThat(mm.cidWeight()).isEqualTo(2);
      assertThat(mm.nextAllocated(0)).isEqualTo(3);
      assertThat(mm.nextAllocated(4)).isEqualTo(cpus - 1);
      assertThat(mm.lastUsed(3)).isEqualTo(900);
      assertThat(mm.lastUsed(cpus - 1)).isEqualTo(500);
      mm.release(3);
      assertThat(mm.cidWeight()).isEqualTo(1);
      assertThat(mm.lastUsed(3)).as("the time outlives the cid").isEqualTo(900);
      assertThat(mm.nextAllocated(0)).isEqualTo(cpus - 1);
    }
  }

  /**
   * The latest switch-in kept in the mm (written to its slot later) reads the same as writing every
   * switch-in at once: random switch-ins, releases and reads against plain per-CPU arrays.
   */
  @Test
  void latestSwitchInKeptAsideReadsAsIfWrittenAtOnce() {
    for (int cpus : new int[] {8, 512}) {
      SplittableRandom rng = new SplittableRandom(cpus);
      Mm mm = new Mm(1, 0, cpus);
      long[] time = new long[cpus];
      boolean[] allocated = new boolean[cpus];
      for (int step = 1; step <= 20_000; step++) {
        // a few CPUs, so a switch-in often lands where the mm last ran
        int cpu = rng.nextInt(4) == 0 ? rng.nextInt(cpus) : rng.nextInt(3);
        switch (rng.nextInt(5)) {
          case 0, 1 -> {
            mm.used(cpu, step);
            time[cpu] = step;
            allocated[cpu] = true;
          }
          case 2 -> {
            if (allocated[cpu]) { // as the scan does: only CPUs holding a cid
              mm.release(cpu);
              allocated[cpu] = false;
            }
          }
          case 3 -> assertThat(mm.lastUsed(cpu)).as("step %d", step).isEqualTo(time[cpu]);
          default -> {
            int weight = 0;
            int first = -1;
            for (int c = cpus - 1; c >= 0; c--) {
              if (allocated[c]) {
                weight++;
                first = c;
              }
            }
            assertThat(mm.cidWeight()).as("step %d", step).isEqualTo(weight);
            assertThat(mm.nextAllocated(0)).as("step %d", step).isEqualTo(first);
          }
        }
      }
    }
  }
}
