package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.MachineSpec;
import dev.schedlab.lab.workload.ToolArgsException;
import dev.schedlab.lab.workload.ToolContext;
import dev.schedlab.lab.workload.ToolExpansion;
import dev.schedlab.lab.workload.ToolParam;
import dev.schedlab.lab.workload.ToolRun;
import dev.schedlab.lab.workload.Tools;
import dev.schedlab.lab.workload.WorkloadTool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Binds {@code workload.tools}: a list of one-key maps, tool name to its argument string ({@code -
 * cyclictest: "-i 100 -t"}) or to {@code {args: STRING, params: {KEY: VALUE}}}, and expands each
 * tool at load time into tasks (see docs/workloads.md).
 */
final class ToolBinder {
  /** One bound tool: where it was written, what it expanded into, its report. */
  record Bound(Val where, ToolExpansion expansion, ToolRun run) {}

  private final MachineSpec machine;
  private final long durationNs;
  private final long tickNs;

  /** The machine's parameter values per tool (a scenario's top-level {@code tools}). */
  private final Map<String, Map<String, Long>> defaults;

  ToolBinder(
      MachineSpec machine, long durationNs, long tickNs, Map<String, Map<String, Long>> defaults) {
    this.machine = machine;
    this.durationNs = durationNs;
    this.tickNs = tickNs;
    this.defaults = defaults;
  }

  /**
   * The top-level {@code tools}: per tool, parameter values for every entry of that tool, as a
   * machine file from {@code schedlab host --calibrate} gives the host's own kernel paths; an
   * entry's {@code params} win.
   */
  static Map<String, Map<String, Long>> defaults(Val tools) throws ScenarioException {
    Map<String, Map<String, Long>> out = new LinkedHashMap<>();
    Obj o = tools.object();
    for (String name : o.names()) {
      Val v = o.get(name);
      WorkloadTool tool =
          Tools.find(name)
              .orElseThrow(
                  () -> v.error("unknown tool " + name + "; expected one of " + Tools.names()));
      out.put(name, params(tool, name, v));
    }
    return out;
  }

  /** A map of {@code tool}'s parameters, each checked against its table and unit. */
  private static Map<String, Long> params(WorkloadTool tool, String name, Val map)
      throws ScenarioException {
    Map<String, Long> params = new LinkedHashMap<>();
    Obj p = map.object();
    for (String key : p.names()) {
      ToolParam tp =
          tool.params().stream()
              .filter(x -> x.name().equals(key))
              .findFirst()
              .orElseThrow(
                  () ->
                      p.get(key)
                          .error(
                              "unknown parameter of "
                                  + name
                                  + "; expected one of "
                                  + String.join(
                                      ", ", tool.params().stream().map(ToolParam::name).toList())));
      Val pv = p.get(key);
      params.put(key, tp.unit().equals("ns") ? pv.durationNs() : pv.integer(0, Long.MAX_VALUE));
    }
    return params;
  }

  List<Bound> bind(Val list) throws ScenarioException {
    List<Bound> out = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (Val item : list.list()) {
      Obj o = item.object();
      if (o.size() != 1) {
        throw item.error("expected one tool per list item, such as cyclictest: \"-i 100\"");
      }
      String name = o.names().get(0);
      Val v = o.get(name);
      WorkloadTool tool =
          Tools.find(name)
              .orElseThrow(
                  () -> v.error("unknown tool " + name + "; expected one of " + Tools.names()));
      String args;
      Map<String, Long> params = new LinkedHashMap<>(defaults.getOrDefault(name, Map.of()));
      if (v.node().isObject()) {
        Obj spec = v.object("args", "params");
        args = spec.has("args") ? spec.get("args").text() : "";
        if (spec.has("params")) {
          params.putAll(params(tool, name, spec.get("params")));
        }
      } else {
        args = v.node() == null || v.node().isNull() ? "" : v.text();
      }
      int k = seen.merge(name, 1, Integer::sum) - 1;
      String id = k == 0 ? name : name + "#" + k;
      ToolExpansion e;
      try {
        e = tool.expand(new ToolContext(id, machine, durationNs, params, tickNs), args);
      } catch (ToolArgsException ex) {
        throw v.error(String.valueOf(ex.getMessage()));
      }
      out.add(new Bound(v, e, new ToolRun(id, name, args, e.report())));
    }
    return out;
  }
}
