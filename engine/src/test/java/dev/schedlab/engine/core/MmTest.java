package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

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
}
