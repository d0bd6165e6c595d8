package dev.schedlab.host.check;

/**
 * One line of the check-host table.
 *
 * @param workload the workload as run on the host
 * @param figure the figure's name
 * @param unit its unit
 * @param real the host's value, or NaN when not measured
 * @param simulated the model's value, or NaN when not run
 * @param tolerance the tolerance
 * @param verdict {@code ok}, {@code outside}, or why the row was not measured
 */
public record Row(
    String workload,
    String figure,
    String unit,
    double real,
    double simulated,
    Tolerance tolerance,
    String verdict) {
  static final String OK = "ok";
  static final String OUTSIDE = "outside";

  /** Whether both values exist. */
  public boolean measured() {
    return !Double.isNaN(real) && !Double.isNaN(simulated);
  }

  /** simulated / real, NaN when not measured or real is 0. */
  public double ratio() {
    return measured() && real != 0 ? simulated / real : Double.NaN;
  }
}
