package dev.schedlab.lab.run;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a set of plugins provides with the built-ins, by name, or why the set cannot be enabled.
 *
 * @param classes the scheduling classes, in priority order
 * @param preemptionModels the preemption models, in the host's order
 * @param idlePolicies the idle policies, in the host's order
 * @param problem why the set cannot be enabled (null when it can; the names are then empty)
 */
public record Provided(
    List<String> classes,
    List<String> preemptionModels,
    List<String> idlePolicies,
    @Nullable String problem) {}
