package dev.schedlab.engine.core;

import dev.schedlab.api.Counter;

/** A counter in the run's metrics. */
final class MetricCounter implements Counter {
  long value;

  @Override
  public void add(long n) {
    value += n;
  }

  @Override
  public long value() {
    return value;
  }
}
