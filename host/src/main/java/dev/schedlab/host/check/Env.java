package dev.schedlab.host.check;

import org.jspecify.annotations.Nullable;

/**
 * What a check run may do: how long each real and simulated run lasts, and whether it may use
 * real-time priorities and mlockall (root).
 *
 * @param seconds length of each timed run (cyclictest, stress-ng)
 * @param quick shorter runs and fewer loops (CI)
 * @param root whether the runs have root's privileges
 * @param nrCpus the host's CPUs
 * @param stressNg the release of the stress-ng that measured the host's figures (null: not known,
 *     the model's stress-ng runs its default release)
 */
public record Env(
    int seconds, boolean quick, boolean root, int nrCpus, @Nullable StressNgVersion stressNg) {
  public Env(int seconds, boolean quick, boolean root, int nrCpus) {
    this(seconds, quick, root, nrCpus, null);
  }

  /** The model's stress-ng tool entry for {@code args}: the host's release when it is known. */
  String[] stressNgTool(String args) {
    return stressNg == null
        ? new String[] {"stress-ng", args}
        : new String[] {"stress-ng", args, "version: " + stressNg.modelVersion()};
  }
}
