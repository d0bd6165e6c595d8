package dev.schedlab.host.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.host.HostException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The real tools' outputs, as rt-tests 2.x, stress-ng 0.15, perf 6.1 and procfs print them. */
class RealOutputsTest {
  @Test
  void cyclictestHistogramsAreSummedOverThreads() throws Exception {
    String out =
        String.join(
            "\n",
            "# /dev/cpu_dma_latency set to 0us",
            "# Histogram",
            "000000 000000\t000000",
            "000001 000002\t000001",
            "000002 000005\t000001",
            "000003 000000\t000001",
            "# Total: 000000007 000000003",
            "# Min Latencies: 00001 00001",
            "# Avg Latencies: 00002 00002",
            "# Max Latencies: 00002 00250",
            "# Histogram Overflows: 00000 00001",
            "# Histogram Overflow at cycle number:",
            "# Thread 0:",
            "# Thread 1: 00017");
    Latencies l = RealOutputs.cyclictest(out);
    assertThat(l.counts()).containsExactly(0L, 3L, 6L, 1L, 1L); // the last bucket: overflows
    assertThat(l.maxUs()).isEqualTo(250);
    assertThat(l.percentile(0.5)).isEqualTo(2); // 6 of 11 samples are at most 2 us
    assertThat(l.percentile(0.99)).isEqualTo(4); // the overflow bucket
  }

  @Test
  void stressNgCyclicPercentilesAndMaximum() throws Exception {
    String out =
        String.join(
            "\n",
            "stress-ng: info:  [3492] cyclic: sched SCHED_DEADLINE: 100000 ns delay, 10000 samples",
            "stress-ng: info:  [3492] cyclic:   mean: 33905.21 ns, mode: 29162 ns",
            "stress-ng: info:  [3492] cyclic:   min: 7009 ns, max: 486642 ns, std.dev. 12562.84",
            "stress-ng: info:  [3492] cyclic: latency percentiles:",
            "stress-ng: info:  [3492] cyclic:   25.00%:      27700 ns",
            "stress-ng: info:  [3492] cyclic:   50.00%:      29833 ns",
            "stress-ng: info:  [3492] cyclic:   99.00%:      74480 ns");
    var m = RealOutputs.stressCyclic(out);
    assertThat(m)
        .containsEntry("50.00", 29833.0)
        .containsEntry("99.00", 74480.0)
        .containsEntry("max", 486642.0);
    assertThatThrownBy(() -> RealOutputs.stressCyclic("stress-ng: info: dispatching hogs"))
        .isInstanceOf(HostException.class)
        .hasMessageContaining("no latency percentiles");
  }

  @Test
  void hackbenchPerfAndPerfStat() throws Exception {
    assertThat(RealOutputs.hackbench("Running in process mode with 1 groups ...\nTime: 0.598\n"))
        .isEqualTo(0.598);
    String perf =
        "# Running 'sched/pipe' benchmark:\n     Total time: 0.933 [sec]\n\n"
            + "       6.139720 usecs/op\n         162873 ops/sec\n"
            + "       7.523480 usecs/op\n         132917 ops/sec\n";
    assertThat(RealOutputs.perfUsecsPerOp(perf)).containsExactly(6.13972, 7.52348);
    assertThat(RealOutputs.perfStat("2,,cpu-migrations,1867339207,100.00,,\n", "cpu-migrations"))
        .isEqualTo(2);
    assertThat(RealOutputs.perfStat("<not supported>,,cpu-migrations,0,100.00,,", "cpu-migrations"))
        .isNaN();
  }

  @Test
  void procInterruptsAndSoftirqsAreSummedOverCpus() {
    String irqs =
        String.join(
            "\n",
            "           CPU0       CPU1       ",
            " 26:          0         14  IO-APIC   4-edge      ttyS0",
            "LOC:       4695       4850   Local timer interrupts",
            "RES:       1419       3301   Rescheduling interrupts");
    assertThat(RealOutputs.procCounts(irqs))
        .containsEntry("LOC", 9545L)
        .containsEntry("RES", 4720L)
        .containsEntry("26", 14L);
    assertThat(
            RealOutputs.procCounts(
                "                    CPU0       CPU1\n" + "      SCHED:       2366       2366\n"))
        .containsEntry("SCHED", 4732L);
  }

  @Test
  void schedFieldReadsOneLineOfProcPidSched() throws HostException {
    String sched =
        String.join(
            "\n",
            "stress-ng-cpu (19400, #threads: 1)",
            "-------------------------------------------------------------------",
            "se.exec_start                                :      56970931.112553",
            "se.sum_exec_runtime                          :          1210.456119",
            "se.nr_migrations                             :                    4");
    assertThat(RealOutputs.schedField(sched, "se.nr_migrations")).isEqualTo(4);
    assertThatThrownBy(() -> RealOutputs.schedField(sched, "nr_switches"))
        .isInstanceOf(HostException.class)
        .hasMessageContaining("nr_switches");
    assertThatThrownBy(() -> RealOutputs.schedField(sched, "se.sum_exec_runtime"))
        .hasMessageContaining("not a whole number");
  }

  @Test
  void toleranceIsAFactorOrAnAbsoluteDifference() {
    Tolerance t = new Tolerance(1.5, 10);
    assertThat(t.accepts(100, 149)).isTrue();
    assertThat(t.accepts(100, 151)).isFalse();
    assertThat(t.accepts(100, 67)).isTrue();
    assertThat(t.accepts(5, 0)).isTrue(); // within 10 of a small count
    assertThat(Tolerance.factor(2).accepts(5, 0)).isFalse();
    assertThat(Tolerance.within2x(10, 20)).isTrue();
    assertThat(Tolerance.within2x(10, 21)).isFalse();
    assertThat(t.toString()).isEqualTo("x1.50 or +-10");
  }

  @Test
  void aLatencyHistogramWithoutSamplesHasNoPercentile() {
    assertThat(new Latencies(List.of(0L, 0L), 0).percentile(0.5)).isNaN();
  }

  @Test
  void pooledHistogramsSumTheirBucketsAndKeepTheLargestMaximum() {
    Latencies a = new Latencies(List.of(0L, 9L, 1L, 0L), 2);
    Latencies b = new Latencies(List.of(0L, 5L, 0L, 5L), 900);
    Latencies p = Latencies.pooled(List.of(a, b));
    assertThat(p.counts()).containsExactly(0L, 14L, 1L, 5L);
    assertThat(p.maxUs()).isEqualTo(900);
    assertThat(p.percentile(0.99)).isEqualTo(3); // b's overflows lift the pooled tail
    assertThat(a.percentile(0.99)).isEqualTo(2);
  }
}
