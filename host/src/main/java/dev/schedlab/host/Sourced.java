package dev.schedlab.host;

/**
 * A fact about the host and where it came from: the file read, a measurement, or a default when
 * nothing could be read. The source becomes the comment beside the value in the machine file.
 */
public record Sourced<T>(T value, String source) {
  public static <T> Sourced<T> of(T value, String source) {
    return new Sourced<>(value, source);
  }

  /** The value kept because nothing could be read. */
  public static <T> Sourced<T> fallback(T value, String what) {
    return new Sourced<>(value, "default: " + what);
  }
}
