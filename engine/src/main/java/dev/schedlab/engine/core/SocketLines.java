package dev.schedlab.engine.core;

import java.util.ArrayDeque;

/**
 * The cache lines of messages passed through sockets ({@link Op#MESSAGE}): a message written on one
 * CPU and read on another costs its reader the lines that cross, and memory freed on the reader's
 * CPU costs the next writer that gets it back the lines the reader holds.
 *
 * <p>Models: each message is a buffer of {@code lines} cache lines (the skb head's data and shared
 * info, the {@code struct sk_buff}) that move together ({@link CacheLine}, one state for all of
 * them): the writer writes them ({@code __alloc_skb()}'s memset, the copy from user space), the
 * reader reads them (the copy to user space, {@code skb_unlink()}, {@code consume_skb()}). A read
 * frees the buffer back to the CPU that allocated it, where the next write on that CPU takes it
 * again, last freed first: SLUB gives an object freed on another CPU back to its slab, which is the
 * allocating CPU's. Each socket also has {@code sharedLines} lines both sides write for every
 * message (the receive queue's head and lock, the peer's {@code unix_sock} lock, the sender's
 * {@code sk_wmem_alloc}), one {@link CacheLine} each.
 *
 * <p>A CPU's private caches hold {@code cache.private_lines} lines ({@code capacity}; 0: no limit):
 * each CPU counts the message lines it touches, and a buffer whose lines this CPU last touched more
 * than that many message lines ago has left its caches, so touching it again waits a fetch from the
 * last-level cache for each line ({@link Interrupts#llcFetch}). With sockets whose queues stay
 * full, as hackbench's senders keep them, a message is read after every other queued message was
 * written, so its lines are still in the writer's caches only while all the queued messages fit.
 *
 * <p>Does not model: the other memory the tasks touch in the same caches (stacks, the sockets
 * themselves: only message lines count), the cache's associativity (eviction is oldest first),
 * lines evicted while a buffer sits freed (a line stays valid until another CPU writes it), slab
 * objects of one size class shared with other tools' messages of another size (the pool is per CPU
 * whatever the size), and the overlap of independent misses: every line's transfer is waited for in
 * turn.
 *
 * <p>Kernel reference: net/unix/af_unix.c ({@code unix_stream_sendmsg()}, {@code
 * unix_stream_read_generic()}), net/core/skbuff.c ({@code __alloc_skb()}, {@code consume_skb()}),
 * mm/slub.c ({@code do_slab_free()}).
 */
final class SocketLines {
  /** Buffers freed back to each CPU, by CPU id; the last freed on top. */
  private final ArrayDeque<Buffer>[] free;

  /** Message lines each CPU's private caches hold; 0: no limit. */
  private final long capacity;

  /** Message lines each CPU has touched so far, by CPU id: the clock eviction is read against. */
  private final long[] touched;

  @SuppressWarnings({"unchecked", "rawtypes"})
  SocketLines(int nrCpus, long capacity) {
    free = new ArrayDeque[nrCpus];
    for (int i = 0; i < nrCpus; i++) {
      free[i] = new ArrayDeque<>();
    }
    this.capacity = capacity;
    this.touched = new long[nrCpus];
  }

  /** {@code c} writes a message of {@code lines} lines into {@code q}; returns its wait. */
  long write(Cpu c, WaitQueue q, int lines, int sharedLines, Interrupts irqs) {
    Socket s = socket(c, q, sharedLines);
    long wait = s.writeShared(c, sharedLines, irqs);
    Buffer b = free[c.id].poll();
    if (b == null) {
      b = new Buffer(c);
    }
    wait += lines * refetched(c, b, b.line.write(c, irqs), lines, irqs);
    s.queued.add(b);
    return wait;
  }

  /**
   * {@code c} reads the oldest message of {@code q} and frees it; returns its wait (the shared
   * lines alone when nothing is queued).
   */
  long read(Cpu c, WaitQueue q, int lines, int sharedLines, Interrupts irqs) {
    Socket s = socket(c, q, sharedLines);
    long wait = s.writeShared(c, sharedLines, irqs);
    Buffer b = s.queued.poll();
    if (b != null) {
      wait += lines * refetched(c, b, b.line.read(c, irqs), lines, irqs);
      free[b.home.id].push(b);
    }
    return wait;
  }

  /**
   * The wait per line of {@code c} touching {@code b}'s {@code lines}, given {@code transfer}, the
   * wait for the lines another CPU holds: a fetch from the last-level cache when {@code c} holds
   * them but has touched more than {@code capacity} other message lines since.
   */
  private long refetched(Cpu c, Buffer b, long transfer, int lines, Interrupts irqs) {
    boolean evicted =
        transfer == 0 && capacity > 0 && b.lastCpu == c && touched[c.id] - b.lastTouch > capacity;
    touched[c.id] += lines;
    b.lastCpu = c;
    b.lastTouch = touched[c.id];
    return evicted ? irqs.llcFetch(c) : transfer;
  }

  private static Socket socket(Cpu c, WaitQueue q, int sharedLines) {
    Socket s = q.socket;
    if (s == null) {
      s = new Socket();
      q.socket = s;
    }
    s.grow(c, sharedLines);
    return s;
  }

  /** The socket state of one receive queue: its queued messages and its shared lines. */
  static final class Socket {
    final ArrayDeque<Buffer> queued = new ArrayDeque<>();
    private CacheLine[] shared = new CacheLine[0];

    void grow(Cpu home, int n) {
      if (n > shared.length) {
        int old = shared.length;
        shared = java.util.Arrays.copyOf(shared, n);
        for (int i = old; i < n; i++) {
          shared[i] = new CacheLine(home);
        }
      }
    }

    long writeShared(Cpu c, int n, Interrupts irqs) {
      long wait = 0;
      for (int i = 0; i < n; i++) {
        wait += shared[i].write(c, irqs);
      }
      return wait;
    }
  }

  /** One message's memory: its lines, and the CPU whose slab it came from. */
  static final class Buffer {
    final Cpu home;
    final CacheLine line;

    /** The CPU that touched the lines last, and its {@link #touched} count then. */
    Cpu lastCpu;

    long lastTouch = Long.MAX_VALUE;

    Buffer(Cpu home) {
      this.home = home;
      this.line = new CacheLine(home);
      this.lastCpu = home;
    }
  }
}
