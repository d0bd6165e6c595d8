package dev.schedlab.host.calibrate;

import dev.schedlab.engine.config.NoiseSpec;
import dev.schedlab.host.Sourced;
import java.util.List;
import java.util.Map;

/**
 * What {@code schedlab host --calibrate} measured: parameter values with the measurement and
 * formula that set each, the noise profile, and each micro-benchmark's real figure beside the
 * calibrated model's (the calibration's own residuals; the ones no parameter was set from are
 * predictions).
 *
 * @param params parameter key to value (ns or count), in the order the steps set them
 * @param toolParams per workload tool, its kernel-path parameters measured on the host (ns)
 * @param noise the measured noise profile, or null when not measured
 * @param checks the micro-benchmarks, real and modelled after calibration
 */
public record Calibration(
    Map<String, Sourced<Long>> params,
    Map<String, Map<String, Sourced<Long>>> toolParams,
    Sourced<NoiseSpec> noise,
    List<Check> checks) {
  public Calibration {
    params = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(params));
    toolParams = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(toolParams));
    checks = List.copyOf(checks);
  }

  /**
   * One micro-benchmark after calibration.
   *
   * @param figure what was measured (probe arguments and figure)
   * @param realNs the host's figure
   * @param modelNs the calibrated model's figure
   * @param setsParam the parameter this figure set, or "" when it is a prediction
   */
  public record Check(String figure, long realNs, long modelNs, String setsParam) {}
}
