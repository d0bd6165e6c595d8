package dev.schedlab.engine.core;

import java.util.Arrays;

/** Values appended in order (times or signed differences, ns), growing as needed. */
final class TimeSeries {
  private long[] values = new long[16];
  private int size;

  void add(long v) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = v;
  }

  long[] toArray() {
    return Arrays.copyOf(values, size);
  }
}
