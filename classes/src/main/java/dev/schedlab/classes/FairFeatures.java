package dev.schedlab.classes;

import dev.schedlab.api.SchedServices;
import dev.schedlab.api.view.MachineView;

/**
 * The fair-class sched features and tunables, read once in {@code init()}.
 *
 * <p>Models: {@code sched_feat()} bits read as {@code feature.NAME} (on unless 0) and {@code
 * sysctl_sched_base_slice} = normalized base slice ({@code sched.base_slice}) × (1 +
 * ilog2(min(ncpus, 8))) (SCHED_TUNABLESCALING_LOG); {@code PROTECT_QUANTUM}, {@code YIELD_FORFEIT}
 * (v6.17+) and {@code FORK_NO_PREEMPT} (the NEXT_BUDDY rework after v6.18) are not kernel bits but
 * the kernel version's choices, see {@link FairClass}.
 *
 * <p>Does not model: run-time feature toggling, other tunable scaling modes.
 *
 * <p>Kernel reference: {@code kernel/sched/features.h}, {@code get_update_sysctl_factor()}.
 */
record FairFeatures(
    boolean placeLag,
    boolean placeDeadlineInitial,
    boolean runToParity,
    boolean preemptShort,
    boolean delayDequeue,
    boolean delayZero,
    boolean wakeupPreemption,
    boolean protectQuantum,
    boolean yieldForfeit,
    boolean forkNoPreempt,
    boolean ttwuDequeueKeepLag,
    long normalizedSliceNs,
    long baseSliceNs,
    long tickNs) {

  static FairFeatures read(MachineView machine, SchedServices s) {
    int cpus = Math.max(1, Math.min(machine.nrCpus(), 8));
    long factor = 1L + (31 - Integer.numberOfLeadingZeros(cpus)); // 1 + ilog2
    long normalized = s.param("sched.base_slice");
    return new FairFeatures(
        Params.feature(s, "PLACE_LAG"),
        Params.feature(s, "PLACE_DEADLINE_INITIAL"),
        Params.feature(s, "RUN_TO_PARITY"),
        Params.feature(s, "PREEMPT_SHORT"),
        Params.feature(s, "DELAY_DEQUEUE"),
        Params.feature(s, "DELAY_ZERO"),
        Params.feature(s, "WAKEUP_PREEMPTION"),
        Params.feature(s, "PROTECT_QUANTUM"),
        Params.feature(s, "YIELD_FORFEIT"),
        Params.feature(s, "FORK_NO_PREEMPT"),
        Params.feature(s, "TTWU_DEQUEUE_KEEP_LAG"),
        normalized,
        normalized * factor,
        machine.tickNs());
  }
}
