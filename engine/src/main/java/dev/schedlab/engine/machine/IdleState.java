package dev.schedlab.engine.machine;

import dev.schedlab.api.view.IdleStateView;

/**
 * One cpuidle state.
 *
 * @param name sysfs name
 * @param exitLatencyNs exit latency
 * @param targetResidencyNs target residency
 * @param polling whether TIF_POLLING_NRFLAG stays set (POLL and MWAIT states)
 * @param enabled whether the governor may choose it
 */
public record IdleState(
    String name, long exitLatencyNs, long targetResidencyNs, boolean polling, boolean enabled)
    implements IdleStateView {}
