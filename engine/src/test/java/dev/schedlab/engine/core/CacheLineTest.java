package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.IpiPath;
import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/** The two-party cache-line model of cross-CPU calls ({@link CacheLine}). */
class CacheLineTest {
  private static final long SAME = Param.CACHELINE_SAME_LLC.defaultValue();
  private static final long CROSS = Param.CACHELINE_CROSS_LLC.defaultValue();

  /** CPUs 0 and 1 share an LLC, CPU 2 is in another one; costs without jitter. */
  private static Kernel kernel() {
    return TestRun.run().cpus(1, 4, 1).coresPerLlc(2).idleStates("hlt-only").noJitter().kernel();
  }

  @Test
  void aReadWaitsForALineWrittenElsewhereOnceThenHits() {
    Kernel k = kernel();
    CacheLine line = new CacheLine(k.cpus[0]);
    assertThat(line.write(k.cpus[0], k.irqs)).as("its home writes it").isZero();
    assertThat(line.read(k.cpus[1], k.irqs)).isEqualTo(SAME);
    assertThat(line.read(k.cpus[1], k.irqs)).as("its copy is valid").isZero();
    assertThat(line.read(k.cpus[0], k.irqs)).as("the writer's copy stays valid").isZero();
  }

  @Test
  void aWriteWaitsUntilTheOtherCopyIsGone() {
    Kernel k = kernel();
    CacheLine line = new CacheLine(k.cpus[0]);
    line.write(k.cpus[0], k.irqs);
    line.read(k.cpus[2], k.irqs);
    assertThat(line.write(k.cpus[0], k.irqs)).as("invalidate the reader's copy").isEqualTo(CROSS);
    assertThat(line.write(k.cpus[0], k.irqs)).as("held alone").isZero();
    assertThat(line.write(k.cpus[2], k.irqs)).as("take it over").isEqualTo(CROSS);
  }

  @Test
  void aLineTouchedWithoutWaitingStillCostsTheOtherSide() {
    Kernel k = kernel();
    CacheLine line = new CacheLine(k.cpus[1]);
    line.write(k.cpus[1], k.irqs);
    line.wroteBy(k.cpus[0]);
    assertThat(line.read(k.cpus[1], k.irqs)).isEqualTo(SAME);
    line.readBy(k.cpus[0]);
    assertThat(line.write(k.cpus[1], k.irqs)).as("CPU 0 holds a copy").isEqualTo(SAME);
  }

  @Test
  void aCallToAnIdleCpuLeavesItsQueueFlagsAndRqLinesWithTheSender() {
    Kernel k = kernel();
    k.run(50_000);
    Cpu target = k.cpus[2];
    k.thisCpu = 0;
    k.irqs.callFunction(k.cpus[0], target, 0, cpu -> {}, null, IpiPath.CALL_FUNCTION);
    // llist_add() wrote the queue head; call_function_single_prep_ipi() read rq->idle and the
    // idle task's flags: the target's next write of each waits for a cross-LLC transfer.
    assertThat(target.callQueueLine.write(target, k.irqs)).isEqualTo(CROSS);
    assertThat(target.rqIdleLine.write(target, k.irqs)).isEqualTo(CROSS);
    assertThat(target.idleFlagsLine.write(target, k.irqs)).isEqualTo(CROSS);
  }
}
