package dev.schedlab.engine.config;

/**
 * A duration, fixed or drawn per use from the task's own random stream.
 *
 * @param kind FIXED, UNIFORM (between a and b) or EXP (mean a)
 * @param a fixed value, lower bound, or mean (ns)
 * @param b upper bound for UNIFORM (ns)
 */
public record Dist(Kind kind, long a, long b) {
  /** Distribution kinds. */
  public enum Kind {
    FIXED,
    UNIFORM,
    EXP
  }

  /** A fixed duration. */
  public static Dist fixed(long ns) {
    return new Dist(Kind.FIXED, ns, ns);
  }

  /** Uniform between {@code lowNs} and {@code highNs} inclusive ({@code {uniform: [A, B]}}). */
  public static Dist uniform(long lowNs, long highNs) {
    return new Dist(Kind.UNIFORM, lowNs, highNs);
  }

  /** Exponential with mean {@code meanNs} ({@code {exp: MEAN}}). */
  public static Dist exp(long meanNs) {
    return new Dist(Kind.EXP, meanNs, 0);
  }

  /** The mean in ns. */
  public double meanNs() {
    return kind == Kind.UNIFORM ? (a + b) / 2.0 : a;
  }
}
