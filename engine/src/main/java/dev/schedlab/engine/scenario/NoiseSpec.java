package dev.schedlab.engine.scenario;

import java.util.List;

/**
 * Interruptions of a CPU that the model does not produce itself: on a VM guest, the host running
 * something else on the vCPU's physical CPU (steal time); on bare metal, SMIs and firmware. Measured
 * by {@code schedlab host --calibrate}, which spins on every CPU and records the gaps it sees.
 *
 * @param ratePerSecond interruptions per second per CPU (a Poisson process)
 * @param durationsNs equally likely quantiles of an interruption's length, ascending: a length is
 *     drawn uniformly between two neighbouring points (a piecewise-linear inverse CDF)
 */
public record NoiseSpec(double ratePerSecond, List<Long> durationsNs) {
  /** No interruptions. */
  public static final NoiseSpec NONE = new NoiseSpec(0, List.of());

  public NoiseSpec {
    durationsNs = List.copyOf(durationsNs);
  }

  /** Whether the machine has any. */
  public boolean active() {
    return ratePerSecond > 0 && !durationsNs.isEmpty();
  }
}
