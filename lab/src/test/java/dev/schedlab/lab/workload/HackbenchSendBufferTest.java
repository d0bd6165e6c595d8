package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.output.RunResult;
import dev.schedlab.lab.scenario.Scenario;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** hackbench's senders and the send buffer of each receiver's socket. */
class HackbenchSendBufferTest {
  private static final long SNDBUF = 212_992;

  /**
   * Non-blocking writes of SIZE bytes into a fresh AF_UNIX stream socketpair until EAGAIN, on the
   * project's host (Linux 6.18, net.core.wmem_default 212992): the messages that fit are
   * ceil(sk_sndbuf / truesize), since each write needs sk_wmem_alloc below sk_sndbuf.
   */
  @ParameterizedTest
  @CsvSource({"10, 278", "100, 278", "200, 167", "1000, 93", "3000, 49"})
  void truesizeGivesTheMessagesAHostSocketTakesBeforeWritersBlock(long size, long fits) {
    long truesize = Hackbench.truesize(size, 320, 256);
    assertThat((SNDBUF + truesize - 1) / truesize).isEqualTo(fits);
  }

  @Test
  void kmallocSizeClassesIncludeNinetySixAndOneNinetyTwo() {
    assertThat(Hackbench.kmallocSize(65)).isEqualTo(96);
    assertThat(Hackbench.kmallocSize(97)).isEqualTo(128);
    assertThat(Hackbench.kmallocSize(129)).isEqualTo(192);
    assertThat(Hackbench.kmallocSize(193)).isEqualTo(256);
    assertThat(Hackbench.kmallocSize(448)).isEqualTo(512);
    assertThat(Hackbench.kmallocSize(512)).isEqualTo(512);
  }

  private static String scenario(long sndbuf) {
    return String.join(
        "\n",
        "duration: 5s",
        "machine: {sockets: 1, cores_per_socket: 2, threads_per_core: 1, idle_states: poll-only}",
        "workload:",
        "  tools:",
        "    - hackbench: {args: \"-g 1 -f 4 -l 200\", params: {socket_sndbuf: " + sndbuf + "}}",
        "");
  }

  @Test
  void aSmallSendBufferHoldsTheSendersBackWithoutLosingMessages() throws Exception {
    // two 768-byte skbs fit: senders block at once and wait for a reader to empty the socket
    Scenario small = ToolRunner.load(scenario(1_536));
    Scenario large = ToolRunner.load(scenario(1_000_000_000));
    RunResult rs = ToolRunner.run(small);
    RunResult rl = ToolRunner.run(large);
    assertThat(report(small, rs).get("messages")).isEqualTo(4L * 4 * 200);
    assertThat(report(large, rl).get("messages")).isEqualTo(4L * 4 * 200);
    // every blocked sender is a wakeup and a switch more than with room for everything
    assertThat(metric(rs, "sched.wakeups")).isGreaterThan(metric(rl, "sched.wakeups") + 100);
    assertThat(metric(rs, "sched.context_switches"))
        .isGreaterThan(metric(rl, "sched.context_switches") + 100);
  }

  @Test
  void aHundredByteMessageIsSevenCacheLines() {
    // two lines of data, the shared info's first, the sk_buff's four
    assertThat(Hackbench.messageLines(100, 256, 1)).isEqualTo(7);
    assertThat(Hackbench.messageLines(129, 256, 1)).isEqualTo(8);
  }

  private static String crossing(int cpus, long lineNs, String params) {
    return String.join(
        "\n",
        "duration: 5s",
        "machine: {sockets: 1, cores_per_socket: "
            + cpus
            + ", threads_per_core: 1,"
            + " idle_states: poll-only}",
        "kernel: {params: {latency.cacheline_same_llc: " + lineNs + "}}",
        "workload:",
        "  tools:",
        "    - hackbench: {args: \"-g 1 -f 4 -l 200\", params: {" + params + "}}",
        "");
  }

  @Test
  void messagesCostTheirCacheLinesOnlyWhenTheyCrossCpus() throws Exception {
    String fewer = "skb_shinfo_lines: 0, socket_shared_lines: 0";
    // One CPU: every message is read where it was written, so its lines cost nothing.
    assertThat(time(crossing(1, 500, ""))).isEqualTo(time(crossing(1, 500, fewer)));
    // Two CPUs: the messages read on the other CPU wait for their lines, fewer lines less.
    assertThat(time(crossing(2, 500, ""))).isGreaterThan(time(crossing(2, 500, fewer)));
  }

  private static long time(String yaml) throws Exception {
    Scenario s = ToolRunner.load(yaml);
    RunResult r = ToolRunner.run(s);
    assertThat(report(s, r).get("messages")).isEqualTo(4L * 4 * 200);
    return Raw.counter(r, "task.last_exit_ns");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> report(Scenario s, RunResult r) {
    return (Map<String, Object>)
        ((Map<String, Object>) Reports.json(s.workload().tools(), r).get("hackbench"))
            .get("report");
  }

  private static long metric(RunResult r, String name) {
    return ((Number) r.metrics().get(name)).longValue();
  }
}
