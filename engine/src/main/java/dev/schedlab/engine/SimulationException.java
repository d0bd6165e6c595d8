package dev.schedlab.engine;

/**
 * A run failed: a plugin threw, or a model invariant was violated. The message says where and when.
 */
public final class SimulationException extends Exception {
  private static final long serialVersionUID = 1L;

  /** A failure with {@code message}. */
  public SimulationException(String message, Throwable cause) {
    super(message, cause);
  }
}
