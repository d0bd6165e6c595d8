package dev.schedlab.host.check;

/**
 * What a check run may do: how long each real and simulated run lasts, and whether it may use
 * real-time priorities and mlockall (root).
 *
 * @param seconds length of each timed run (cyclictest, stress-ng)
 * @param quick shorter runs and fewer loops (CI)
 * @param root whether the runs have root's privileges
 * @param nrCpus the host's CPUs
 */
public record Env(int seconds, boolean quick, boolean root, int nrCpus) {}
