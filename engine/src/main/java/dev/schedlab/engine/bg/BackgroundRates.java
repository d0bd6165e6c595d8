package dev.schedlab.engine.bg;

/**
 * The background's rates on one CPU, from the parameter table ({@code bg.*}).
 *
 * @param timersPerSecond timer-wheel expiries per second per CPU, deferrable ones included
 * @param deferrableShare the share of them that are deferrable (0-1)
 * @param kworkerShare the share of expiries whose callback queues work on the CPU's kworker (0-1)
 * @param rcuCallbacksPerExpiry RCU callbacks queued per expiry (mean; a fraction is drawn)
 */
public record BackgroundRates(
    double timersPerSecond,
    double deferrableShare,
    double kworkerShare,
    double rcuCallbacksPerExpiry) {

  public BackgroundRates {
    requireShare("deferrable share", deferrableShare);
    requireShare("kworker share", kworkerShare);
    if (timersPerSecond < 0 || rcuCallbacksPerExpiry < 0) {
      throw new IllegalArgumentException(
          "background rates must be >= 0: timers/s "
              + timersPerSecond
              + ", RCU callbacks per expiry "
              + rcuCallbacksPerExpiry);
    }
  }

  /**
   * From the table's integer values: rates x1000 ({@code bg.timer_rate_milli}, {@code
   * bg.rcu_callbacks_milli}), shares per mille.
   */
  public static BackgroundRates fromTable(
      long timerRateMilli, long deferrablePermille, long kworkerPermille, long rcuMilli) {
    return new BackgroundRates(
        timerRateMilli / 1000.0,
        deferrablePermille / 1000.0,
        kworkerPermille / 1000.0,
        rcuMilli / 1000.0);
  }

  /** Whether the CPU has any background timer at all. */
  public boolean active() {
    return timersPerSecond > 0;
  }

  private static void requireShare(String what, double v) {
    if (v < 0 || v > 1) {
      throw new IllegalArgumentException(
          what + " must be within 0-1000 per mille, got " + v * 1000);
    }
  }
}
