package dev.schedlab.lab.workload;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.output.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * tbench (dbench package) against tbench_srv over loopback: {@code tbench: "NPROCS"}.
 *
 * <p>Models: NPROCS client processes, each with its own server process (tbench_srv forks one per
 * connection, so the clients are created first and the servers after them), SCHED_NORMAL nice 0,
 * exchanging request/response messages: the sender computes, sends (tcp_sendmsg copy, then loopback
 * transmit and the receive softirq run in the sender's context with bottom halves disabled), and
 * wakes the peer with WF_SYNC (sk_data_ready); the receiver copies the data out (tcp_recvmsg). The
 * scenario's duration is tbench's {@code -t}; as dbench does by default, the first fifth of it is
 * warm-up and is not counted. Throughput = exchanges after the warm-up x bytes per exchange / time
 * after the warm-up. Does not model: the client.txt operation mix (one exchange type, {@code
 * bytes_per_exchange}), TCP windows and ACK timing.
 */
public final class Tbench implements WorkloadTool {
  static final ToolParam BYTES =
      ToolParam.num(
          "bytes_per_exchange",
          4096,
          "bytes",
          "[estimate] request + reply payload of one NetBench exchange; a scale factor only",
          "bytes counted per request/response exchange");
  static final ToolParam CLIENT_USER =
      ToolParam.ns(
          "client_user",
          2_000,
          "[estimate] tbench client: next operation from the load file",
          "client user work per exchange");
  static final ToolParam SERVER_USER =
      ToolParam.ns(
          "server_user",
          1_000,
          "[estimate] tbench_srv: parse request, build reply",
          "server user work per exchange");
  static final ToolParam SEND_COPY =
      ToolParam.ns(
          "send_copy",
          1_500,
          "[estimate] tcp_sendmsg: skb alloc + copy (preemptible)",
          "send syscall, process context");
  static final ToolParam SEND_SOFTIRQ =
      ToolParam.ns(
          "send_softirq",
          3_000,
          "[estimate] loopback xmit + net_rx softirq in the sender's context, BH disabled (~5-10 us"
              + " total send path: kernel-model.md 3.4)",
          "send path, non-preemptible part");
  static final ToolParam RECV_COPY =
      ToolParam.ns(
          "recv_copy",
          1_500,
          "[estimate] tcp_recvmsg copy to user",
          "receive syscall after the wakeup");

  @Override
  public String name() {
    return "tbench";
  }

  @Override
  public String summary() {
    return "tbench: client/server process pairs over loopback TCP, WF_SYNC wakeups; MB/s";
  }

  @Override
  public List<ToolParam> params() {
    return List.of(BYTES, CLIENT_USER, SERVER_USER, SEND_COPY, SEND_SOFTIRQ, RECV_COPY);
  }

  @Override
  public ToolExpansion expand(ToolContext ctx, String line) throws ToolArgsException {
    ToolArgs a = ToolArgs.parse(name(), line, List.of());
    List<String> pos = a.positionals();
    if (pos.isEmpty() || pos.size() > 2) {
      throw a.error("expected NPROCS [SERVER], e.g. tbench: \"8\"");
    }
    int n = (int) a.integerOf("NPROCS", pos.get(0), 1, 65536);
    if (pos.size() == 2 && !pos.get(1).equals("localhost") && !pos.get(1).equals("127.0.0.1")) {
      throw a.error(
          "only a loopback server (localhost, 127.0.0.1) is modelled, got '" + pos.get(1) + "'");
    }
    long warmupNs = ctx.durationNs() / WARMUP_DIVISOR;
    // tbench forks its clients first; tbench_srv then forks a server per accepted connection.
    List<TaskSpec> tasks = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      tasks.add(
          Tasks.normal(
              ctx.id() + "/client" + i,
              "",
              List.of(
                  Tasks.user(ctx.param(CLIENT_USER)),
                  send(ctx),
                  new StepSpec.Wake(ctx.id() + "/c2s/" + i, true),
                  new StepSpec.Block(ctx.id() + "/s2c/" + i),
                  recv(ctx),
                  new StepSpec.Mark(ctx.id() + ".exchanges", warmupNs))));
    }
    for (int i = 0; i < n; i++) {
      tasks.add(
          Tasks.normal(
              ctx.id() + "/server" + i,
              "",
              List.of(
                  new StepSpec.Block(ctx.id() + "/c2s/" + i),
                  recv(ctx),
                  Tasks.user(ctx.param(SERVER_USER)),
                  send(ctx),
                  new StepSpec.Wake(ctx.id() + "/s2c/" + i, true))));
    }
    return new ToolExpansion(
        tasks, Map.of(), -1, new Report(ctx.id(), n, ctx.param(BYTES), warmupNs));
  }

  /** [src] dbench.c: {@code if (options.warmup == -1) options.warmup = options.timelimit / 5}. */
  static final int WARMUP_DIVISOR = 5;

  private static StepSpec send(ToolContext ctx) {
    return Tasks.kernel(
        Tasks.seg(ctx.param(SEND_COPY), "MIGHT_RESCHED"), Tasks.locked(ctx.param(SEND_SOFTIRQ)));
  }

  private static StepSpec recv(ToolContext ctx) {
    return Tasks.kernel(Tasks.seg(ctx.param(RECV_COPY), "MIGHT_RESCHED"));
  }

  /** {@code Throughput X MB/sec N clients N procs}. */
  record Report(String id, int clients, long bytes, long warmupNs) implements ToolReport {
    double mbps(RunResult r) {
      long ex = Raw.counter(r, "mark." + id + ".exchanges");
      double secs = (r.simNs() - warmupNs) / 1e9;
      return secs <= 0 ? 0 : ex * (double) bytes / 1e6 / secs;
    }

    @Override
    public Map<String, Object> json(RunResult r) {
      Map<String, Object> m = new TreeMap<>();
      m.put("clients", clients);
      m.put("exchanges", Raw.counter(r, "mark." + id + ".exchanges"));
      m.put("warmup_ns", warmupNs);
      m.put("throughput_mb_s", Math.round(mbps(r) * 1000) / 1000.0);
      return m;
    }

    @Override
    public String text(RunResult r) {
      return String.format(
          Locale.ROOT, "Throughput %.3f MB/sec  %d clients  %d procs%n", mbps(r), clients, clients);
    }
  }
}
