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
 * <p>Models: the start as dbench's {@code create_procs()} and tbench_srv's {@code listener()} do
 * it, then NPROCS client processes, each with its own server process, SCHED_NORMAL nice 0,
 * exchanging request/response messages. The start: the tbench parent forks the NPROCS clients one
 * after another; each client connects to tbench_srv (the handshake runs in its own context and
 * wakes the listener in {@code accept()} with WF_SYNC), does the setup exchange of {@code
 * sio_setup()} and stops itself ({@code raise(SIGSTOP)}: the stop report wakes the parent with
 * WF_SYNC); tbench_srv accepts each connection and forks a server for it, which blocks in {@code
 * recv}. The parent waits for each child to stop in order ({@code waitpid(WUNTRACED)}), then
 * releases them in order with {@code kill(pid, SIGCONT)}, each a wakeup without WF_SYNC from the
 * parent's CPU. Forked children start on the forking CPU and are placed by fork balancing. An
 * exchange: the sender computes, sends (tcp_sendmsg copy, then loopback transmit and the receive
 * softirq run in the sender's context with bottom halves disabled), and wakes the peer with WF_SYNC
 * (sk_data_ready); the receiver copies the data out (tcp_recvmsg). The scenario's duration is
 * tbench's {@code -t}; as dbench does by default, the first fifth of it after the release is
 * warm-up and is not counted. Throughput = exchanges after the warm-up x bytes per exchange / time
 * after the warm-up. Does not model: the client.txt operation mix (one exchange type, {@code
 * bytes_per_exchange}), TCP windows and ACK timing, the parent's once-a-second {@code SIGALRM};
 * server k serves the k-th client forked, which is the k-th connection accepted while connects
 * arrive in fork order.
 *
 * <p>Kernel reference: dbench.c {@code create_procs()}, sockio.c {@code sio_setup()}, tbench_srv.c
 * {@code listener()} and {@code server()} (github.com/sahlberg/dbench); kernel/signal.c {@code
 * do_signal_stop()}, {@code prepare_signal()}; kernel/exit.c {@code __wake_up_parent()}.
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
  static final ToolParam FORK =
      ToolParam.ns(
          "fork",
          40_000,
          "[estimate] fork() of a small process without exec: copy_process() with the mm's page"
              + " tables, then wake_up_new_task()",
          "kernel time of one fork in the forking process (tbench parent, tbench_srv)");
  static final ToolParam CONNECT =
      ToolParam.ns(
          "connect",
          20_000,
          "[estimate] tcp_v4_connect(); SYN, SYN-ACK and ACK through loopback and the receive"
              + " softirq in the caller's context, BH disabled",
          "client's connect() to tbench_srv, non-preemptible; ends waking the listener");
  static final ToolParam ACCEPT =
      ToolParam.ns(
          "accept",
          5_000,
          "[estimate] inet_csk_accept(), sock_alloc_file(); close() of the listener's copy and"
              + " waitpid(WNOHANG) in tbench_srv's loop",
          "tbench_srv's work per accepted connection, besides the fork");
  static final ToolParam SIGNAL_STOP =
      ToolParam.ns(
          "signal_stop",
          3_000,
          "[estimate] raise(SIGSTOP): kill syscall, do_signal_stop(), do_notify_parent_cldstop()",
          "client's stop after setup; ends waking the parent (__wake_up_parent, WF_SYNC)");
  static final ToolParam WAITPID =
      ToolParam.ns(
          "waitpid",
          2_000,
          "[estimate] wait4(WUNTRACED): wait_task_stopped() collecting the stop report",
          "parent's kernel time per stopped child");
  static final ToolParam KILL_CONT =
      ToolParam.ns(
          "kill_cont",
          2_000,
          "[estimate] kill(pid, SIGCONT): prepare_signal() wakes the stopped child"
              + " (wake_up_state(__TASK_STOPPED), no WF_SYNC)",
          "parent's kernel time per released child");

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
    return List.of(
        BYTES,
        CLIENT_USER,
        SERVER_USER,
        SEND_COPY,
        SEND_SOFTIRQ,
        RECV_COPY,
        FORK,
        CONNECT,
        ACCEPT,
        SIGNAL_STOP,
        WAITPID,
        KILL_CONT);
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
    String id = ctx.id();
    String parent = id + "/parent";
    List<TaskSpec> tasks = new ArrayList<>();
    tasks.add(Tasks.normal(parent, "", parentProgram(ctx, n)));
    tasks.add(Tasks.normal(id + "/listener", "", listenerProgram(ctx, n)));
    for (int i = 0; i < n; i++) {
      tasks.add(Tasks.forked(client(i, id), clientProgram(ctx, i, warmupNs)));
    }
    for (int i = 0; i < n; i++) {
      tasks.add(
          Tasks.forked(
              server(i, id),
              List.of(
                  new StepSpec.Block(id + "/c2s/" + i),
                  recv(ctx),
                  Tasks.user(ctx.param(SERVER_USER)),
                  send(ctx),
                  new StepSpec.Wake(id + "/s2c/" + i, true))));
    }
    return new ToolExpansion(
        tasks, Map.of(), -1, new Report(id, parent, n, ctx.param(BYTES), warmupNs));
  }

  static String client(int i, String id) {
    return id + "/client" + i;
  }

  static String server(int i, String id) {
    return id + "/server" + i;
  }

  /** Key of the parent's time series holding the release time (dbench's {@code tv_start}). */
  static final String RELEASE = "release";

  /**
   * dbench's {@code create_procs()}: fork every client, wait for each to stop, release each with
   * SIGCONT, take the start time, then wait for the children to exit (never, within a run).
   */
  private static List<StepSpec> parentProgram(ToolContext ctx, int n) {
    String id = ctx.id();
    List<StepSpec> p = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      p.add(Tasks.kernel(Tasks.seg(ctx.param(FORK), "NONE")));
      p.add(new StepSpec.Fork(client(i, id), client(i, id), -1));
    }
    for (int i = 0; i < n; i++) {
      p.add(
          new StepSpec.Syscall(
              List.of(
                  new StepSpec.Block(id + "/stopped/" + i),
                  Tasks.kernel(Tasks.seg(ctx.param(WAITPID), "NONE")))));
    }
    for (int i = 0; i < n; i++) {
      p.add(
          new StepSpec.Syscall(
              List.of(
                  Tasks.kernel(Tasks.seg(ctx.param(KILL_CONT), "NONE")),
                  new StepSpec.Wake(id + "/cont/" + i, false))));
    }
    p.add(new StepSpec.Clock(RELEASE));
    p.add(new StepSpec.Stamp(id + "." + RELEASE));
    p.add(new StepSpec.Block(id + "/exited"));
    return p;
  }

  /**
   * tbench_srv's {@code listener()}: per connection, {@code accept()} (sleeping until a client's
   * connect wakes it) and fork a server; after the last, it sleeps in accept for good.
   */
  private static List<StepSpec> listenerProgram(ToolContext ctx, int n) {
    String id = ctx.id();
    StepSpec accept =
        new StepSpec.Syscall(
            List.of(
                new StepSpec.Block(id + "/accept"),
                Tasks.kernel(Tasks.seg(ctx.param(ACCEPT), "NONE"))));
    List<StepSpec> p = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      p.add(accept);
      p.add(Tasks.kernel(Tasks.seg(ctx.param(FORK), "NONE")));
      p.add(new StepSpec.Fork(server(i, id), server(i, id), -1));
    }
    p.add(new StepSpec.Block(id + "/accept"));
    return p;
  }

  /**
   * A client: {@code sio_setup()} (connect, one exchange), stop until released, then exchanges for
   * good, each counted once the warm-up after the release is over.
   */
  private static List<StepSpec> clientProgram(ToolContext ctx, int i, long warmupNs) {
    String id = ctx.id();
    StepSpec wakeServer = new StepSpec.Wake(id + "/c2s/" + i, true);
    StepSpec awaitReply = new StepSpec.Block(id + "/s2c/" + i);
    List<StepSpec> p = new ArrayList<>();
    p.add(
        new StepSpec.Syscall(
            List.of(
                Tasks.kernel(Tasks.locked(ctx.param(CONNECT))),
                new StepSpec.Wake(id + "/accept", true))));
    p.addAll(List.of(send(ctx), wakeServer, awaitReply, recv(ctx)));
    p.add(
        new StepSpec.Syscall(
            List.of(
                Tasks.kernel(Tasks.seg(ctx.param(SIGNAL_STOP), "NONE")),
                new StepSpec.Wake(id + "/stopped/" + i, true),
                new StepSpec.Block(id + "/cont/" + i))));
    p.add(
        new StepSpec.Loop(
            Integer.MAX_VALUE,
            List.of(
                Tasks.user(ctx.param(CLIENT_USER)),
                send(ctx),
                wakeServer,
                awaitReply,
                recv(ctx),
                new StepSpec.Mark(id + ".exchanges", warmupNs, id + "." + RELEASE))));
    return p;
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
  record Report(String id, String parent, int clients, long bytes, long warmupNs)
      implements ToolReport {
    /** When the parent released the clients (dbench's {@code tv_start}), or -1 if it did not. */
    long releaseNs(RunResult r) {
      long[] t = Raw.samples(r, "clock/" + parent + "/" + RELEASE);
      return t.length == 0 ? -1 : t[0];
    }

    double mbps(RunResult r) {
      long release = releaseNs(r);
      long ex = Raw.counter(r, "mark." + id + ".exchanges");
      double secs = release < 0 ? 0 : (r.simNs() - release - warmupNs) / 1e9;
      return secs <= 0 ? 0 : ex * (double) bytes / 1e6 / secs;
    }

    @Override
    public Map<String, Object> json(RunResult r) {
      Map<String, Object> m = new TreeMap<>();
      m.put("clients", clients);
      m.put("exchanges", Raw.counter(r, "mark." + id + ".exchanges"));
      m.put("release_ns", releaseNs(r));
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
