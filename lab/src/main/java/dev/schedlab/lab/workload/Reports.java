package dev.schedlab.lab.workload;

import dev.schedlab.engine.output.RunResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The tool reports of a run: structured (JSON {@code reports}) and as the tools print them. */
public final class Reports {
  private Reports() {}

  /** Tool id to {@code {tool, args, report}}, in scenario order; empty without tools. */
  public static Map<String, Object> json(List<ToolRun> tools, RunResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (ToolRun t : tools) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("tool", t.tool());
      one.put("args", t.args());
      one.put("report", t.report().json(r));
      m.put(t.id(), one);
    }
    return m;
  }

  /** Each tool's output under a {@code $ tool args} header line; empty without tools. */
  public static String text(List<ToolRun> tools, RunResult r) {
    StringBuilder sb = new StringBuilder();
    for (ToolRun t : tools) {
      sb.append("\n$ ")
          .append(t.tool())
          .append(t.args().isBlank() ? "" : " " + t.args().trim())
          .append('\n')
          .append(t.report().text(r));
    }
    return sb.toString();
  }
}
