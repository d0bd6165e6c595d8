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
 * <p>Does not model: lines evicted while a buffer sits freed (a line stays valid until another CPU
 * writes it), slab objects of one size class shared with other tools' messages of another size (the
 * pool is per CPU whatever the size), and the overlap of independent misses: every line's transfer
 * is waited for in turn.
 *
 * <p>Kernel reference: net/unix/af_unix.c ({@code unix_stream_sendmsg()}, {@code
 * unix_stream_read_generic()}), net/core/skbuff.c ({@code __alloc_skb()}, {@code consume_skb()}),
 * mm/slub.c ({@code do_slab_free()}).
 */
final class SocketLines {
  /** Buffers freed back to each CPU, by CPU id; the last freed on top. */
  private final ArrayDeque<Buffer>[] free;

  @SuppressWarnings({"unchecked", "rawtypes"})
  SocketLines(int nrCpus) {
    free = new ArrayDeque[nrCpus];
    for (int i = 0; i < nrCpus; i++) {
      free[i] = new ArrayDeque<>();
    }
  }

  /** {@code c} writes a message of {@code lines} lines into {@code q}; returns its wait. */
  long write(Cpu c, WaitQueue q, int lines, int sharedLines, Interrupts irqs) {
    Socket s = socket(c, q, sharedLines);
    long wait = s.writeShared(c, sharedLines, irqs);
    Buffer b = free[c.id].poll();
    if (b == null) {
      b = new Buffer(c);
    }
    wait += lines * b.line.write(c, irqs);
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
      wait += lines * b.line.read(c, irqs);
      free[b.home.id].push(b);
    }
    return wait;
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

    Buffer(Cpu home) {
      this.home = home;
      this.line = new CacheLine(home);
    }
  }
}
