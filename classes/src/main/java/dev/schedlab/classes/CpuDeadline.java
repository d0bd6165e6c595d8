package dev.schedlab.classes;

import dev.schedlab.api.view.TaskView;
import java.util.Arrays;
import java.util.BitSet;

/**
 * The per-root-domain index of CPU deadlines that {@code find_later_rq()} consults.
 *
 * <p>Models: {@code struct cpudl}, a max-heap of the earliest deadline of every CPU that has
 * SCHED_DEADLINE tasks queued (the top is the CPU whose earliest deadline is the latest), with the
 * CPU's slot in the heap kept per CPU so an update re-sifts it in place, and {@code free_cpus}, the
 * CPUs of the root domain with no deadline task. {@link #find}: the allowed free CPUs if there are
 * any, else the top CPU if the task may run there and its deadline is earlier. Deadlines compare as
 * the kernel's {@code dl_time_before()} (signed difference).
 *
 * <p>Does not model: the heap's raw spinlock (one global lock per root domain, taken at every
 * update), the capacity filter of asymmetric machines ({@code dl_task_fits_capacity()}).
 *
 * <p>Kernel reference: {@code kernel/sched/cpudeadline.c} ({@code cpudl_find}, {@code cpudl_set},
 * {@code cpudl_clear}, {@code cpudl_heapify_up}, {@code cpudl_heapify_down}).
 */
final class CpuDeadline {
  private static final int INVALID = -1;

  /** Heap slots: the CPU and its earliest deadline. */
  private final int[] heapCpu;

  private final long[] heapDl;

  /** Per CPU: its slot in the heap, or {@link #INVALID}. */
  private final int[] slot;

  private final BitSet free = new BitSet();
  private int size;

  /** An index over {@code span}, every CPU of it free. */
  CpuDeadline(int nrCpus, BitSet span) {
    heapCpu = new int[nrCpus];
    heapDl = new long[nrCpus];
    slot = new int[nrCpus];
    Arrays.fill(slot, INVALID);
    free.or(span);
  }

  private static boolean before(long a, long b) {
    return a - b < 0;
  }

  /** {@code cpudl_set()}: {@code cpu}'s earliest deadline is now {@code dl}. */
  void set(int cpu, long dl) {
    int at = slot[cpu];
    if (at == INVALID) {
      at = size++;
      heapCpu[at] = cpu;
      heapDl[at] = dl;
      slot[cpu] = at;
      up(at);
      free.clear(cpu);
    } else {
      heapDl[at] = dl;
      sift(at);
    }
  }

  /** {@code cpudl_clear()}: {@code cpu} has no deadline task left. */
  void clear(int cpu) {
    int at = slot[cpu];
    if (at == INVALID) {
      return;
    }
    size--;
    int last = heapCpu[size];
    heapCpu[at] = last;
    heapDl[at] = heapDl[size];
    slot[last] = at;
    slot[cpu] = INVALID;
    if (at < size) {
      sift(at);
    }
    free.set(cpu);
  }

  /**
   * {@code cpudl_find()}: fills {@code later} with the CPUs where {@code p}, whose deadline is
   * {@code deadline}, could run earlier than what they run; false when there is none.
   */
  boolean find(TaskView p, long deadline, BitSet later) {
    later.clear();
    for (int c = free.nextSetBit(0); c >= 0; c = free.nextSetBit(c + 1)) {
      if (p.allowedOn(c)) {
        later.set(c);
      }
    }
    if (!later.isEmpty()) {
      return true;
    }
    if (size > 0 && p.allowedOn(heapCpu[0]) && before(deadline, heapDl[0])) {
      later.set(heapCpu[0]);
      return true;
    }
    return false;
  }

  /** The CPU at the top of the heap (the latest earliest deadline), or -1. */
  int maximum() {
    return size == 0 ? -1 : heapCpu[0];
  }

  /** The earliest deadline recorded for {@code cpu}; only meaningful when it is not free. */
  long deadlineOf(int cpu) {
    return heapDl[slot[cpu]];
  }

  boolean isFree(int cpu) {
    return free.get(cpu);
  }

  private void sift(int at) {
    if (at > 0 && before(heapDl[parent(at)], heapDl[at])) {
      up(at);
    } else {
      down(at);
    }
  }

  private static int parent(int i) {
    return (i - 1) >> 1;
  }

  private void up(int at) {
    int cpu = heapCpu[at];
    long dl = heapDl[at];
    while (at > 0) {
      int p = parent(at);
      if (before(dl, heapDl[p])) {
        break;
      }
      move(p, at);
      at = p;
    }
    place(at, cpu, dl);
  }

  private void down(int at) {
    int cpu = heapCpu[at];
    long dl = heapDl[at];
    while (true) {
      int l = 2 * at + 1;
      int r = l + 1;
      int largest = at;
      long largestDl = dl;
      if (l < size && before(dl, heapDl[l])) {
        largest = l;
        largestDl = heapDl[l];
      }
      if (r < size && before(largestDl, heapDl[r])) {
        largest = r;
      }
      if (largest == at) {
        break;
      }
      move(largest, at);
      at = largest;
    }
    place(at, cpu, dl);
  }

  private void move(int from, int to) {
    heapCpu[to] = heapCpu[from];
    heapDl[to] = heapDl[from];
    slot[heapCpu[to]] = to;
  }

  private void place(int at, int cpu, long dl) {
    heapCpu[at] = cpu;
    heapDl[at] = dl;
    slot[cpu] = at;
  }
}
