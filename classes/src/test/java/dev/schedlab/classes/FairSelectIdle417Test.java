package dev.schedlab.classes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.SchedFlags;
import dev.schedlab.classes.fixture.FakeEngine;
import dev.schedlab.classes.fixture.FakeRq;
import dev.schedlab.classes.fixture.FakeServices;
import dev.schedlab.classes.fixture.FakeTask;
import org.junit.jupiter.api.Test;

/**
 * v4.17's wakeup scans ({@code feature.SIS_PROP}, {@code feature.SIS_CORE_CPU_SMT}): the depth
 * follows the waker's avg_idle and its LLC's avg_scan_cost, and {@code select_idle_smt()} of the
 * target finds an idle thread of the target's core that a short scan did not reach.
 */
class FairSelectIdle417Test {
  private static final int CPUS = 16;
  private static final int LLC = 8;

  private FakeServices services;
  private FairSelect select;

  private void setUp(boolean coreCpuSmt, int smt, int... idleCpus) {
    services = new FakeServices(CPUS, LLC);
    services.params.put("feature.SIS_UTIL", 0L);
    services.params.put("feature.SIS_PROP", 1L);
    services.params.put("feature.SIS_CORE_CPU_SMT", coreCpuSmt ? 1L : 0L);
    services.machine.smt = smt;
    FairClass fair = new FairClass();
    new FakeEngine(fair, services);
    select = new FairSelect(services.machine, services, fair);
    FakeTask busy = FakeTask.normal(100);
    for (int c = 0; c < CPUS; c++) {
      FakeRq rq = services.rq(c);
      rq.curr = busy;
      rq.nrRunning = 1;
    }
    for (int c : idleCpus) {
      FakeRq rq = services.rq(c);
      rq.curr = rq.idle;
      rq.nrRunning = 0;
    }
  }

  /** A wakeup on {@code cpu} of a task that last ran there (no wake_affine). */
  private int wake(int cpu) {
    FakeTask p = FakeTask.normal(1);
    p.allowedMask = (1L << CPUS) - 1;
    return select.select(p, cpu, cpu, SchedFlags.WF_TTWU);
  }

  @Test
  void depthFollowsAvgIdleAndTheScansOwnCost() {
    for (boolean coreCpuSmt : new boolean[] {false, true}) {
      // CPU 6 is the only idle one; from target 1 the scan reaches it at the 5th (v6.12 order,
      // from target + 1) or 6th (v4.17, from target) probe.
      setUp(coreCpuSmt, 1, 6);
      services.rq(1).avgIdleNs = 0; // nr = 4: at most 3 probes
      assertThat(wake(1)).as("short avg_idle, v4.17 order %s", coreCpuSmt).isEqualTo(1);

      setUp(coreCpuSmt, 1, 6);
      services.rq(1).avgIdleNs = 512 * 10; // nr = 8 x 10 / (0 + 1) = 80
      assertThat(wake(1)).as("long avg_idle").isEqualTo(6);

      // A completed scan over the whole busy LLC (8 probes x 30 ns) moves avg_scan_cost from 0 by
      // an eighth of 240 ns: 30; then nr = 80 / 31 = 2 < 4, so nr = 4 and CPU 6 is out of reach.
      setUp(coreCpuSmt, 1);
      services.rq(1).avgIdleNs = 512 * 10;
      assertThat(wake(1)).isEqualTo(1);
      services.rq(6).curr = services.rq(6).idle;
      services.rq(6).nrRunning = 0;
      assertThat(wake(1)).as("after a costly scan, v4.17 order %s", coreCpuSmt).isEqualTo(1);
    }
  }

  @Test
  void selectIdleSmtOfTheTargetAfterAShortScan() {
    // SMT4: cores {0-3} and {4-7}. Target 3 is busy, its sibling 0 idle; the scan from 3 with nr =
    // 4
    // probes 3, 4 and 5 only; v4.17's select_idle_smt(target) then finds 0.
    setUp(true, 4, 0);
    assertThat(wake(3)).isEqualTo(0);
    assertThat(services.pathCost).isEqualTo((3 + 1) * 30L); // 3 scanned, then thread 0 of 3's core
  }
}
