package dev.schedlab.lab.experiment;

import java.util.List;

/**
 * Mean and 95% confidence half-width (Student t, n - 1 degrees of freedom) of a metric over seeds.
 *
 * @param n number of values
 * @param mean the mean
 * @param ci95 half-width of the 95% confidence interval (0 for n &lt; 2)
 */
public record Summary(int n, double mean, double ci95) {
  private static final double[] T975 = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042
  };

  /** The 0.975 quantile of Student's t with {@code df} degrees of freedom. */
  static double t975(int df) {
    if (df <= 0) {
      return Double.NaN;
    }
    if (df <= T975.length) {
      return T975[df - 1];
    }
    return df <= 40 ? 2.021 : df <= 60 ? 2.000 : df <= 120 ? 1.980 : 1.960;
  }

  /** The summary of {@code values}. */
  public static Summary of(List<Double> values) {
    int n = values.size();
    if (n == 0) {
      return new Summary(0, Double.NaN, 0);
    }
    double mean = values.stream().mapToDouble(Double::doubleValue).sum() / n;
    if (n < 2) {
      return new Summary(n, mean, 0);
    }
    double ss = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
    double sd = Math.sqrt(ss / (n - 1));
    return new Summary(n, mean, t975(n - 1) * sd / Math.sqrt(n));
  }
}
