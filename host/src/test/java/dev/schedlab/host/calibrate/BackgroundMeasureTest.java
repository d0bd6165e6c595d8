package dev.schedlab.host.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.host.HostFiles;
import dev.schedlab.host.Sourced;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The background counters read from captured /proc text, and the parameters from two readings. */
class BackgroundMeasureTest {
  /** /proc/softirqs of a 2-vCPU guest (Linux 6.18), with the TIMER and RCU counts given. */
  private static String softirqs(long timer0, long timer1, long rcu0, long rcu1) {
    return String.join(
        "\n",
        "                    CPU0       CPU1       ",
        "          HI:          0          0",
        "       TIMER:    " + timer0 + "    " + timer1,
        "      NET_TX:        615       1615",
        "      NET_RX:     103104     116185",
        "       BLOCK:          0    2348007",
        "    IRQ_POLL:          0          0",
        "     TASKLET:         12          4",
        "       SCHED:    1596387    1619057",
        "     HRTIMER:         55         62",
        "         RCU:    " + rcu0 + "    " + rcu1);
  }

  private static String interrupts(long loc0, long loc1) {
    return String.join(
        "\n",
        "           CPU0       CPU1       ",
        "  1:          9          0   IO-APIC   1-edge      i8042",
        "LOC:    " + loc0 + "    " + loc1 + "   Local timer interrupts",
        "RES:      21736      22364   Rescheduling interrupts",
        "ERR:          0");
  }

  private static void write(Path root, String path, String text) throws IOException {
    Path p = root.resolve(path.substring(1));
    Files.createDirectories(p.getParent());
    Files.writeString(p, text + "\n", StandardCharsets.UTF_8);
  }

  /** A /proc with two bound kworkers, a highpri one, an unbound one and rcu_preempt. */
  private static HostFiles proc(Path root, long timer, long rcu, long loc, long kwRuns)
      throws IOException {
    write(root, "/proc/softirqs", softirqs(timer, timer + 10, rcu, rcu + 4));
    write(root, "/proc/interrupts", interrupts(loc, loc + 6));
    write(root, "/proc/10266/comm", "kworker/0:0-events");
    write(root, "/proc/10266/schedstat", (143289727 + kwRuns * 20_000) + " 1860733730 " + kwRuns);
    write(root, "/proc/2083/comm", "kworker/1:3-virtio_vsock");
    write(
        root, "/proc/2083/schedstat", (300709781 + kwRuns * 30_000) + " 6895774678 " + 2 * kwRuns);
    write(root, "/proc/24/comm", "kworker/1:0H-kblockd");
    write(root, "/proc/24/schedstat", kwRuns * 1_000_000 + " 1 " + 50 * kwRuns);
    write(root, "/proc/16621/comm", "kworker/u8:3-kvfree_rcu_reclaim");
    write(root, "/proc/16621/schedstat", kwRuns * 1_000_000 + " 1 " + 50 * kwRuns);
    write(root, "/proc/15/comm", "rcu_preempt");
    write(root, "/proc/15/schedstat", "35168767010 1172353147084 1975045");
    return new HostFiles(root);
  }

  @Test
  void readsTheSoftirqRowsAndOnlyTheBoundNormalKworkers(@TempDir Path root) throws IOException {
    BackgroundSample s = BackgroundSample.read(proc(root, 1000, 500, 7000, 100)).orElseThrow();
    assertThat(s.timer()).isEqualTo(2010);
    assertThat(s.rcu()).isEqualTo(1004);
    assertThat(s.loc()).isEqualTo(14006);
    assertThat(s.kworkers()).containsOnlyKeys(10266, 2083);
    assertThat(s.kworkers().get(2083)).containsExactly(300709781 + 100 * 30_000L, 200L);
  }

  @Test
  void nothingWithoutSoftirqs(@TempDir Path root) {
    assertThat(BackgroundSample.read(new HostFiles(root))).isEmpty();
    assertThat(BackgroundSample.schedstat("12 34")).isEmpty();
  }

  @Test
  void ratesPerCpuAndSharesPerExpiryOverTheWindow(@TempDir Path a, @TempDir Path b)
      throws IOException {
    BackgroundSample before = BackgroundSample.read(proc(a, 1000, 500, 7000, 100)).orElseThrow();
    // 5 s later: 200 TIMER, 120 RCU, 250 LOC; the kworkers ran 10 + 20 more times for 500 us.
    BackgroundSample after = BackgroundSample.read(proc(b, 1100, 560, 7125, 110)).orElseThrow();
    Map<String, Sourced<Long>> p = BackgroundMeasure.params(before, after, 5, 2, 250);
    assertThat(p.get("bg.timer_rate_milli").value()).isEqualTo(20_000); // 200 / (5 s x 2)
    assertThat(p.get("bg.rcu_callbacks_milli").value()).isEqualTo(600); // 120 / 200
    assertThat(p.get("bg.kworker_permille").value()).isEqualTo(150); // 30 / 200
    assertThat(p.get("bg.kworker_burst").value()).isEqualTo(500_000 / 30);
    BackgroundSample rcuHeavy =
        new BackgroundSample(after.timer(), before.rcu() + 500, after.loc(), after.kworkers());
    assertThat(BackgroundMeasure.params(before, rcuHeavy, 5, 2, 250).get("bg.rcu_callbacks_milli"))
        .as("one softirq per expiry at most: 500 RCU against 200 TIMER")
        .extracting(Sourced::value)
        .isEqualTo(1000L);
    assertThat(p.get("bg.timer_rate_milli").source())
        .contains("TIMER +200", "LOC 25/s per CPU against HZ 250 (nohz idle: the tick stops)");
  }

  @Test
  void noTimerSoftirqsSetNothing(@TempDir Path a) throws IOException {
    BackgroundSample s = BackgroundSample.read(proc(a, 1000, 500, 7000, 100)).orElseThrow();
    assertThat(BackgroundMeasure.params(s, s, 5, 2, 250)).isEmpty();
  }
}
