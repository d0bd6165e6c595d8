package dev.schedlab.classes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.SchedFlags;
import dev.schedlab.classes.fixture.FakeEngine;
import dev.schedlab.classes.fixture.FakeRq;
import dev.schedlab.classes.fixture.FakeServices;
import dev.schedlab.classes.fixture.FakeTask;
import org.junit.jupiter.api.Test;

/**
 * {@code select_idle_cpu()} over a busy LLC: the scan through the idle mask (a task allowed on
 * every CPU) stops at the same CPU and adds the same probe cost as the CPU-by-CPU loop (a task
 * whose affinity leaves out one CPU of the other LLC, which sends it down the loop): every idle
 * pattern of one LLC, every waking CPU, every SIS_UTIL depth.
 */
class FairIdleScanTest {
  private static final int CPUS = 16;
  private static final int LLC = 8;

  @Test
  void maskScanAndLoopAgree() {
    int found = 0;
    for (int idleInLlc = 0; idleInLlc < 1 << LLC; idleInLlc++) {
      for (int prev = 0; prev < LLC; prev++) {
        for (int nrIdleScan = -1; nrIdleScan <= LLC + 1; nrIdleScan++) {
          found += agree(idleInLlc, prev, nrIdleScan) ? 1 : 0;
        }
      }
    }
    assertThat(found).isPositive(); // some scans stop at an idle CPU, not all at target
  }

  /** Whether the scan found an idle CPU, after checking both ways agree. */
  private static boolean agree(int idleInLlc, int prev, int nrIdleScan) {
    FakeServices services = new FakeServices(CPUS, LLC);
    FairClass fair = new FairClass();
    new FakeEngine(fair, services);
    FairSelect select = new FairSelect(services.machine, services, fair);
    services.machine.nrIdleScan = nrIdleScan;
    FakeTask busy = FakeTask.normal(100);
    for (int c = 0; c < CPUS; c++) {
      boolean idle = c < LLC && c != prev && (idleInLlc & (1 << c)) != 0;
      FakeRq rq = services.rq(c);
      rq.curr = idle ? rq.idle : busy;
      rq.nrRunning = idle ? 0 : 1;
    }
    FakeTask anywhere = FakeTask.normal(1);
    anywhere.allowedMask = (1L << CPUS) - 1;
    FakeTask notOnLast = FakeTask.normal(2);
    notOnLast.allowedMask = (1L << (CPUS - 1)) - 1;

    services.pathCost = 0;
    int byMask = select.select(anywhere, prev, prev, SchedFlags.WF_TTWU);
    long maskCost = services.pathCost;
    services.pathCost = 0;
    int byLoop = select.select(notOnLast, prev, prev, SchedFlags.WF_TTWU);

    assertThat(byMask).isEqualTo(byLoop);
    assertThat(maskCost).isEqualTo(services.pathCost);
    if (nrIdleScan < 0 && (idleInLlc & ~(1 << prev)) != 0) {
      assertThat(services.machine.cpu(byMask).isIdle()).isTrue(); // an unlimited scan finds one
    }
    return byMask != prev;
  }
}
