package dev.schedlab.engine.config;

/**
 * One cpuidle state of a machine file's own table ({@code machine.idle_states} as a list), as
 * {@code /sys/devices/system/cpu/cpuN/cpuidle/stateK} describes it.
 *
 * @param name the state's sysfs {@code name}
 * @param exitLatencyNs sysfs {@code latency}
 * @param targetResidencyNs sysfs {@code residency}
 * @param polling whether the CPU keeps TIF_POLLING_NRFLAG set in the state (POLL, MWAIT states)
 * @param irqEnable whether the state is entered with interrupts on ({@code
 *     CPUIDLE_FLAG_IRQ_ENABLE})
 */
public record IdleStateSpec(
    String name, long exitLatencyNs, long targetResidencyNs, boolean polling, boolean irqEnable) {}
