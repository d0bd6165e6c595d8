package dev.schedlab.api;

/**
 * A named metric counter, obtained once from {@link SchedServices#counter} and then bumped cheaply.
 */
public interface Counter {
  /** Adds {@code n}. */
  void add(long n);

  /** Adds one. */
  default void increment() {
    add(1);
  }

  /** Current value. */
  long value();
}
