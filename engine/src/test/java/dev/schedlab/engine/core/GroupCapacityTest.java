package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The sched groups' capacities: shared per span, and following {@code update_cpu_capacity()}. */
class GroupCapacityTest {

  @Test
  void everyDomainSharesOneGroupCapacityPerSpanAndEachCpuKnowsItsGroups() {
    Kernel k = TestRun.run().kernel(); // small-x86: 4 cores x SMT2, one LLC
    SchedDomain mc0 = k.cpus[0].domains[1];
    SchedDomain mc5 = k.cpus[5].domains[1];
    assertThat(mc0).isNotSameAs(mc5);
    for (int g = 0; g < mc0.nrGroups(); g++) {
      assertThat(mc0.groupCaps[g]).isSameAs(mc5.groupCaps[mc5.groupOf(mc0.groupNextCpu(g, 0))]);
    }
    // CPU 0: its own SMT group (CPU 0 alone) and its core's group of the MC level.
    assertThat(k.cpus[0].groupCaps)
        .containsExactlyInAnyOrder(
            k.cpus[0].domains[0].groupCaps[k.cpus[0].domains[0].groupOf(0)],
            mc0.groupCaps[mc0.groupOf(0)]);
  }

  @Test
  void aCapacityChangeShowsInTheSumAndMaximumOfEveryGroupOfThatCpu() {
    Kernel k = TestRun.run().kernel();
    SchedDomain mc = k.cpus[3].domains[1];
    int g = mc.groupOf(0);
    int sibling = mc.groupNextCpu(g, 1);
    assertThat(mc.groupWeight(g)).isEqualTo(2);
    assertThat(mc.groupCapacity(g)).isEqualTo(2048); // read once: cached from here on
    assertThat(mc.groupMaxCapacity(g)).isEqualTo(1024);

    k.cpus[0].avgRt.utilAvg = 512; // RT took half of CPU 0: capacity_of() 512
    RqPelt.updateCapacity(k.cpus[0]);

    assertThat(k.cpus[0].capacity).isEqualTo(512);
    assertThat(mc.groupCapacity(g)).isEqualTo(512 + k.cpus[sibling].capacity);
    assertThat(mc.groupMaxCapacity(g)).isEqualTo(1024);
    SchedDomain smt = k.cpus[0].domains[0];
    assertThat(smt.groupCapacity(smt.groupOf(0))).isEqualTo(512);
    assertThat(smt.groupMaxCapacity(smt.groupOf(0))).isEqualTo(512);
  }
}
