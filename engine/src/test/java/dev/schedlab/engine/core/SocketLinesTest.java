package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/** The cache lines of socket messages ({@link SocketLines}). */
class SocketLinesTest {
  private static final long SAME = Param.CACHELINE_SAME_LLC.defaultValue();
  private static final long CROSS = Param.CACHELINE_CROSS_LLC.defaultValue();
  private static final int LINES = 7;
  private static final int SHARED = 3;

  /** CPUs 0 and 1 share an LLC, CPU 2 is in another one; costs without jitter. */
  private static Kernel kernel() {
    return TestRun.run().cpus(1, 4, 1).coresPerLlc(2).idleStates("hlt-only").noJitter().kernel();
  }

  @Test
  void aMessageReadOnItsWritersCpuCostsNoTransfer() {
    Kernel k = kernel();
    SocketLines s = new SocketLines(k.cpus.length, 0);
    WaitQueue q = new WaitQueue("q");
    Cpu c = k.cpus[0];
    assertThat(s.write(c, q, LINES, SHARED, k.irqs)).isZero();
    assertThat(s.read(c, q, LINES, SHARED, k.irqs)).isZero();
    assertThat(s.write(c, q, LINES, SHARED, k.irqs)).as("its own freed buffer again").isZero();
  }

  @Test
  void aMessageReadOnAnotherCpuCostsItsLinesAndTheSocketsOnce() {
    Kernel k = kernel();
    SocketLines s = new SocketLines(k.cpus.length, 0);
    WaitQueue q = new WaitQueue("q");
    s.write(k.cpus[0], q, LINES, SHARED, k.irqs);
    s.write(k.cpus[0], q, LINES, SHARED, k.irqs);
    assertThat(s.read(k.cpus[1], q, LINES, SHARED, k.irqs))
        .as("the message's lines and the socket's, all written on CPU 0")
        .isEqualTo((LINES + SHARED) * SAME);
    assertThat(s.read(k.cpus[1], q, LINES, SHARED, k.irqs))
        .as("the socket's lines are CPU 1's now: the second message's own lines only")
        .isEqualTo(LINES * SAME);
    assertThat(s.read(k.cpus[1], q, LINES, SHARED, k.irqs))
        .as("nothing queued: the socket's lines, held already")
        .isZero();
  }

  @Test
  void aWriterReusingMemoryFreedElsewhereTakesItsLinesBack() {
    Kernel k = kernel();
    SocketLines s = new SocketLines(k.cpus.length, 0);
    WaitQueue q = new WaitQueue("q");
    s.write(k.cpus[0], q, LINES, SHARED, k.irqs);
    s.read(k.cpus[2], q, LINES, SHARED, k.irqs);
    // CPU 0's next skb is the one CPU 2 freed (SLUB returns it to CPU 0's slab), and CPU 2 holds
    // the socket's lines: everything crosses the LLCs back.
    assertThat(s.write(k.cpus[0], q, LINES, SHARED, k.irqs)).isEqualTo((LINES + SHARED) * CROSS);
    assertThat(s.write(k.cpus[0], q, LINES, SHARED, k.irqs))
        .as("a new buffer, the socket held")
        .isZero();
  }

  @Test
  void aBufferGoesBackToTheCpuThatAllocatedIt() {
    Kernel k = kernel();
    SocketLines s = new SocketLines(k.cpus.length, 0);
    WaitQueue a = new WaitQueue("a");
    WaitQueue b = new WaitQueue("b");
    s.write(k.cpus[0], a, LINES, 0, k.irqs);
    s.read(k.cpus[1], a, LINES, 0, k.irqs);
    assertThat(s.write(k.cpus[1], b, LINES, 0, k.irqs))
        .as("CPU 1 allocates from its own slab, not CPU 0's freed buffer")
        .isZero();
    assertThat(s.write(k.cpus[0], b, LINES, 0, k.irqs))
        .as("CPU 0 gets its buffer back from CPU 1, for another socket too")
        .isEqualTo(LINES * SAME);
  }

  @Test
  void aMessageQueuedBehindMoreThanTheCacheHoldsIsFetchedBackFromTheLlc() {
    Kernel k = kernel();
    Cpu c = k.cpus[0];
    // room for two messages' lines: the third message written pushes the first out
    SocketLines s = new SocketLines(k.cpus.length, 2 * LINES);
    WaitQueue q = new WaitQueue("q");
    for (int i = 0; i < 4; i++) {
      s.write(c, q, LINES, SHARED, k.irqs);
    }
    assertThat(s.read(c, q, LINES, SHARED, k.irqs))
        .as("three messages' lines touched since the first was written")
        .isEqualTo(LINES * SAME);
    SocketLines roomy = new SocketLines(k.cpus.length, 4 * LINES);
    for (int i = 0; i < 4; i++) {
      roomy.write(c, q, LINES, SHARED, k.irqs);
    }
    assertThat(roomy.read(c, q, LINES, SHARED, k.irqs)).as("all four fit").isZero();
    SocketLines unlimited = new SocketLines(k.cpus.length, 0);
    for (int i = 0; i < 100; i++) {
      unlimited.write(c, q, LINES, SHARED, k.irqs);
    }
    assertThat(unlimited.read(c, q, LINES, SHARED, k.irqs)).as("no limit").isZero();
  }

  @Test
  void onlyTheCpuThatTouchedTheLinesCountsTowardTheirEviction() {
    Kernel k = kernel();
    SocketLines s = new SocketLines(k.cpus.length, 2 * LINES);
    WaitQueue q = new WaitQueue("q");
    WaitQueue other = new WaitQueue("other");
    s.write(k.cpus[0], q, LINES, SHARED, k.irqs);
    for (int i = 0; i < 4; i++) {
      s.write(k.cpus[1], other, LINES, SHARED, k.irqs);
    }
    assertThat(s.read(k.cpus[0], q, LINES, SHARED, k.irqs))
        .as("CPU 1's messages fill CPU 1's caches, not CPU 0's")
        .isZero();
  }
}
