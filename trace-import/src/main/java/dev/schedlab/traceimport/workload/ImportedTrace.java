package dev.schedlab.traceimport.workload;

import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.traceimport.history.History;
import dev.schedlab.traceimport.history.TracedTask;
import dev.schedlab.traceimport.read.Trace;
import java.util.Map;

/**
 * A trace turned into a scenario.
 *
 * @param trace the trace as read
 * @param history what its tasks did and how they fared
 * @param scenarioText the scenario, as written to {@code --out}
 * @param scenario the scenario, loaded from that text
 * @param replayScenario the same with room to finish: a replay slower than the trace still runs
 *     every program to its end (the scenario's duration is the trace's length)
 * @param replayed the traced task each scenario task replays, by scenario task name
 */
public record ImportedTrace(
    Trace trace,
    History history,
    String scenarioText,
    Scenario scenario,
    Scenario replayScenario,
    Map<String, TracedTask> replayed) {}
