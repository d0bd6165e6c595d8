package dev.schedlab.lab.workload;

import static dev.schedlab.lab.workload.ToolArgs.Arg.NONE;
import static dev.schedlab.lab.workload.ToolArgs.Arg.REQUIRED;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.output.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * hackbench (rt-tests): groups of {@code -f} senders and {@code -f} receivers (default 20 + 20, 10
 * groups); each sender writes {@code -l} messages of {@code -s} bytes to every receiver of its
 * group over a socketpair (default) or a pipe ({@code -p}); processes (default) or threads ({@code
 * -T}).
 *
 * <p>Models: each write as a syscall (copy + queue) that wakes the receiver with WF_SYNC, as {@code
 * pipe_write()} and a unix socket's {@code sock_def_readable()} do ({@code
 * wake_up_interruptible_sync_poll()}; a sender waking many receivers is then kept from affine
 * wakeups by {@code wake_wide()}); each receiver blocks until a message is queued, then reads it
 * (the wake and the block are syscalls of their own: docs/fidelity.md). Over sockets, each
 * message's skb is charged to the send buffer of the senders' end of the socketpair (its
 * SKB_TRUESIZE against {@code sk_sndbuf}): a sender finding the buffer full sleeps ({@code
 * sock_alloc_send_pskb()}) until a read frees it down to a quarter ({@code unix_write_space()}),
 * which wakes every waiting sender. A message read on another CPU than its writer's costs the
 * reader the cache lines of its data and skb, and a write reusing memory a reader freed on another
 * CPU costs the writer as many; the socket's queue, lock and send-buffer count cross for every
 * message whose other side ran elsewhere (engine {@code SocketLines}). Everyone exits when done,
 * and Time is when the last task exits. Does not model: the start-up barrier and fork cost, a
 * pipe's data crossing CPUs, a pipe's own limit (16 pages: {@code -p} writers never block), skbs
 * with page fragments (messages above 3776 bytes are charged as one kmalloc'd head), threads
 * sharing one mm across the sender and receiver groups (see docs/fidelity.md).
 *
 * <p>Kernel reference: {@code unix_stream_sendmsg()}, {@code unix_stream_read_generic()}, {@code
 * unix_write_space()} (net/unix/af_unix.c); {@code sock_alloc_send_pskb()}, {@code sock_wfree()}
 * (net/core/sock.c); {@code SKB_TRUESIZE()} (include/linux/skbuff.h).
 */
public final class Hackbench implements WorkloadTool {
  /**
   * The source of the socket costs measured on the project's machine with the batches of {@code
   * schedlab-probe paths}: a path's p50 less the p50 of a bare getppid() in the same run. A
   * calibrated machine file carries the host's own ({@code tools: hackbench:}).
   */
  private static final String MEASURED =
      "[measured] Linux 6.18, 2-vCPU KVM guest (AMD EPYC), schedlab-probe paths p50 less getppid's"
          + " (docs/workloads.md, hackbench): ";

  static final ToolParam SOCK_WRITE =
      ToolParam.ns(
          "socket_write",
          850,
          MEASURED
              + "write() of 100 bytes with room and no sleeping reader, p50 0.99-1.12 us over five"
              + " runs, less getppid's 0.18-0.22 us: 0.82-0.90 us",
          "write path, socket mode: unix_stream_sendmsg(), skb alloc, copy, queue");
  static final ToolParam PIPE_WRITE =
      ToolParam.ns(
          "pipe_write",
          800,
          "[estimate] pipe_write: copy into the pipe buffer",
          "write path, pipe mode");
  static final ToolParam SOCK_READ =
      ToolParam.ns(
          "socket_read",
          940,
          MEASURED
              + "read() of one queued 100-byte message, p50 1.07-1.21 us over five runs, less"
              + " getppid's 0.18-0.22 us: 0.90-0.99 us",
          "read path, socket mode: unix_stream_read_generic(), copy, consume_skb()");
  static final ToolParam PIPE_READ =
      ToolParam.ns("pipe_read", 700, "[estimate] pipe_read", "read path, pipe mode");
  static final ToolParam SNDBUF =
      ToolParam.num(
          "socket_sndbuf",
          212_992,
          "bytes",
          "[src] net.core.wmem_default (sock_init_data() sets sk_sndbuf from it; 212992 on the"
              + " project's host)",
          "send buffer of each receiver's socket, shared by the group's senders");
  static final ToolParam SKB_SHINFO =
      ToolParam.num(
          "skb_shared_info",
          320,
          "bytes",
          "[src] SKB_DATA_ALIGN(sizeof(struct skb_shared_info)), x86-64 v6.x (17 frags)",
          "tail of every skb head; with the message it sets the kmalloc size class of the head");
  static final ToolParam SKB_STRUCT =
      ToolParam.num(
          "sk_buff",
          256,
          "bytes",
          "[src] SKB_DATA_ALIGN(sizeof(struct sk_buff)), x86-64 v6.x",
          "the sk_buff itself, counted in SKB_TRUESIZE()");
  static final ToolParam SHINFO_LINES =
      ToolParam.num(
          "skb_shinfo_lines",
          1,
          "lines",
          "[src] include/linux/skbuff.h: the skb_shared_info fields the paths touch (__alloc_skb()"
              + " clears it up to dataref; skb_release_data() reads nr_frags and frag_list and"
              + " drops dataref) lie in its first 64 bytes",
          "cache lines of an skb's shared info a message's writer and reader both touch");
  static final ToolParam SHARED_LINES =
      ToolParam.num(
          "socket_shared_lines",
          3,
          "lines",
          "[src] net/unix/af_unix.c, net/core/sock.c: per message both unix_stream_sendmsg() and"
              + " unix_stream_read_generic() write the receiver's unix_state_lock(), its"
              + " sk_receive_queue (head and spinlock: skb_queue_tail(), skb_unlink()) and the"
              + " sender's sk_wmem_alloc (skb_set_owner_w(), sock_wfree()); the wait queue the"
              + " wakeup takes is the wakeup's",
          "cache lines of a socketpair that its writer and reader both write for every message");

  static final List<ToolArgs.Opt> OPTS =
      List.of(
          ToolArgs.Opt.of("p", "pipe", NONE),
          ToolArgs.Opt.of("s", "datasize", REQUIRED),
          ToolArgs.Opt.of("l", "loops", REQUIRED),
          ToolArgs.Opt.of("g", "groups", REQUIRED),
          ToolArgs.Opt.of("f", "fds", REQUIRED),
          ToolArgs.Opt.of("T", "threads", NONE),
          ToolArgs.Opt.of("P", "process", NONE));

  @Override
  public String name() {
    return "hackbench";
  }

  @Override
  public String summary() {
    return "hackbench: sender/receiver groups over sockets or pipes; Time:";
  }

  @Override
  public List<ToolParam> params() {
    return List.of(
        SOCK_WRITE,
        PIPE_WRITE,
        SOCK_READ,
        PIPE_READ,
        SNDBUF,
        SKB_SHINFO,
        SKB_STRUCT,
        SHINFO_LINES,
        SHARED_LINES);
  }

  @Override
  public ToolExpansion expand(ToolContext ctx, String line) throws ToolArgsException {
    ToolArgs a = ToolArgs.parse(name(), line, OPTS);
    if (!a.positionals().isEmpty()) {
      throw a.error("unexpected argument '" + a.positionals().get(0) + "'");
    }
    boolean pipe = a.has("pipe");
    boolean threads = a.has("threads");
    long size = a.integer("datasize", 100, 1, 1 << 20);
    int loops = (int) a.integer("loops", 100, 1, Integer.MAX_VALUE);
    int groups = (int) a.integer("groups", 10, 1, 10_000);
    int fds = (int) a.integer("fds", 20, 1, 1_000);
    long write = ctx.param(pipe ? PIPE_WRITE : SOCK_WRITE);
    long read = ctx.param(pipe ? PIPE_READ : SOCK_READ);
    String process = threads ? "group" : "own";
    long sndbuf = ctx.param(SNDBUF);
    long truesize = truesize(size, ctx.param(SKB_SHINFO), ctx.param(SKB_STRUCT));
    int lines = messageLines(size, ctx.param(SKB_STRUCT), ctx.param(SHINFO_LINES));
    int shared = (int) ctx.param(SHARED_LINES);
    List<TaskSpec> tasks = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      List<StepSpec> body = new ArrayList<>();
      for (int r = 0; r < fds; r++) {
        List<StepSpec> parts = new ArrayList<>();
        if (!pipe) {
          parts.add(new StepSpec.Charge(socket(ctx, g, r), truesize, sndbuf));
        }
        parts.add(Tasks.kernel(Tasks.seg(write, "MIGHT_RESCHED")));
        if (!pipe) {
          parts.add(new StepSpec.Message(queue(ctx, g, r), true, lines, shared));
        }
        body.add(new StepSpec.Syscall(parts));
        body.add(new StepSpec.Wake(queue(ctx, g, r), true));
      }
      List<StepSpec> sender = Tasks.runThenExit(loops, body);
      tasks.add(
          new TaskSpec(
              ctx.id() + "/g" + g + "-sender",
              fds,
              "normal",
              0,
              0,
              0,
              0,
              0,
              "",
              false,
              false,
              process,
              0,
              sender));
      for (int r = 0; r < fds; r++) {
        List<StepSpec> parts = new ArrayList<>();
        parts.add(Tasks.kernel(Tasks.seg(read, "MIGHT_RESCHED")));
        if (!pipe) {
          parts.add(new StepSpec.Message(queue(ctx, g, r), false, lines, shared));
          // unix_writable(): the senders are woken once a quarter of sk_sndbuf or less is in use
          parts.add(new StepSpec.Uncharge(socket(ctx, g, r), truesize, sndbuf / 4, true));
        }
        List<StepSpec> receiver =
            Tasks.runThenExit(
                (long) fds * loops,
                List.of(
                    new StepSpec.Block(queue(ctx, g, r)),
                    new StepSpec.Syscall(parts),
                    new StepSpec.Mark(ctx.id() + ".messages")));
        tasks.add(
            Tasks.withPolicy(
                ctx.id() + "/g" + g + "-receiver" + r, "normal", 0, 0, "", false, receiver));
      }
    }
    return new ToolExpansion(
        tasks, Map.of(), -1, new Report(ctx.id(), pipe, threads, groups, fds, loops, size));
  }

  private static String queue(ToolContext ctx, int group, int receiver) {
    return ctx.id() + "/g" + group + "/r" + receiver;
  }

  /** The senders' end of receiver {@code receiver}'s socketpair: its send buffer. */
  private static String socket(ToolContext ctx, int group, int receiver) {
    return queue(ctx, group, receiver) + "/sndbuf";
  }

  /**
   * SKB_TRUESIZE() of one message's skb: the head kmalloc'd for the cache-aligned data and the
   * shared info (__alloc_skb(): the whole slab object counts), plus the sk_buff.
   */
  static long truesize(long size, long shinfo, long skbStruct) {
    return kmallocSize(align(size, 64) + shinfo) + skbStruct;
  }

  /** The kmalloc size class that serves {@code n} bytes: powers of two, and 96 and 192. */
  static long kmallocSize(long n) {
    if (n > 64 && n <= 96) {
      return 96;
    }
    if (n > 128 && n <= 192) {
      return 192;
    }
    return Math.max(8, Long.highestOneBit(n - 1) << 1);
  }

  /**
   * The cache lines of one message that its reader reads and its writer writes: the data in the skb
   * head (from its cache-aligned start), the shared info's first line, and every line of the
   * sk_buff ([estimate]: the queue links and cb, len and destructor, end, head and users, which
   * together span all four lines of a 256-byte sk_buff on x86-64).
   */
  static int messageLines(long size, long skbStruct, long shinfoLines) {
    return (int) (align(size, 64) / 64 + shinfoLines + align(skbStruct, 64) / 64);
  }

  private static long align(long n, long to) {
    return (n + to - 1) / to * to;
  }

  /** hackbench's banner and {@code Time:} line. */
  record Report(String id, boolean pipe, boolean threads, int groups, int fds, int loops, long size)
      implements ToolReport {
    @Override
    public Map<String, Object> json(RunResult r) {
      Map<String, Object> m = new TreeMap<>();
      m.put("mode", threads ? "threaded" : "process");
      m.put("transport", pipe ? "pipe" : "socket");
      m.put("groups", groups);
      m.put("tasks", groups * fds * 2);
      m.put("messages", Raw.counter(r, "mark." + id + ".messages"));
      m.put("expected_messages", (long) groups * fds * fds * loops);
      m.put("time_s", Math.round(Raw.counter(r, "task.last_exit_ns") / 1e6) / 1e3);
      return m;
    }

    @Override
    public String text(RunResult r) {
      StringBuilder sb = new StringBuilder();
      sb.append(
          String.format(
              Locale.ROOT,
              "Running in %s mode with %d groups using %d file descriptors each (== %d tasks)%n",
              threads ? "threaded" : "process",
              groups,
              2 * fds,
              groups * fds * 2));
      sb.append(
          String.format(
              Locale.ROOT, "Each sender will pass %d messages of %d bytes%n", loops, size));
      sb.append(
          String.format(Locale.ROOT, "Time: %.3f%n", Raw.counter(r, "task.last_exit_ns") / 1e9));
      return sb.toString();
    }
  }
}
