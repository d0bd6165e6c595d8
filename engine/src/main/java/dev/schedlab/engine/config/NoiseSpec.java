package dev.schedlab.engine.config;

import java.util.List;

/**
 * Interruptions of a CPU that the model does not produce itself: on a VM guest, the host running
 * something else on the vCPU's physical CPU (steal time); on bare metal, SMIs and firmware.
 * Measured by {@code schedlab host --calibrate}, which spins on every CPU and bins the gaps it
 * sees.
 *
 * @param bins interruptions by length: each bin's lengths and how often they come, per second per
 *     CPU; together a Poisson process whose stall lengths are drawn by bin, uniformly within it
 */
public record NoiseSpec(List<Bin> bins) {
  /** No interruptions. */
  public static final NoiseSpec NONE = new NoiseSpec(List.of());

  /**
   * Interruptions from {@code fromNs} (inclusive) to {@code toNs} long, {@code ratePerSecond} of
   * them per second per CPU.
   */
  public record Bin(long fromNs, long toNs, double ratePerSecond) {}

  public NoiseSpec {
    bins = List.copyOf(bins);
  }

  /** Interruptions per second per CPU, all lengths. */
  public double ratePerSecond() {
    return bins.stream().mapToDouble(Bin::ratePerSecond).sum();
  }

  /** Whether the machine has any. */
  public boolean active() {
    return ratePerSecond() > 0;
  }
}
