package dev.schedlab.benchmarks;

/**
 * The baseline's immutable event: a new object per scheduled occurrence, ordered by (time, seq)
 * like the engine's events so both queues pop in the same order.
 */
final class NaiveEvent implements Comparable<NaiveEvent> {
  final long time;
  final long seq;
  final int owner;

  NaiveEvent(long time, long seq, int owner) {
    this.time = time;
    this.seq = seq;
    this.owner = owner;
  }

  @Override
  public int compareTo(NaiveEvent o) {
    int c = Long.compare(time, o.time);
    return c != 0 ? c : Long.compare(seq, o.seq);
  }
}
