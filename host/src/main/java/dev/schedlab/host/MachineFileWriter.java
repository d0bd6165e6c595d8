package dev.schedlab.host;

import dev.schedlab.engine.scenario.IdleStateSpec;
import dev.schedlab.engine.scenario.NoiseSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes a machine file: the {@code machine:} and {@code kernel:} sections of a scenario for the
 * described host, every value under a comment that says where it came from, calibrated costs
 * with their measurement and formula.
 */
public final class MachineFileWriter {
  private final StringBuilder out = new StringBuilder();

  private MachineFileWriter() {}

  /** The machine file of {@code host}, with {@code calibration} (may be null) folded in. */
  public static String write(HostDescription host, Calibration calibration, String version) {
    MachineFileWriter w = new MachineFileWriter();
    w.header(host, calibration, version);
    w.machine(host, calibration);
    w.kernel(host, calibration);
    return w.out.toString();
  }

  private void header(HostDescription h, Calibration c, String version) {
    line("# schedlab machine file, written by `schedlab host" + (c == null ? "" : " --calibrate")
        + "` (schedlab " + version + ")");
    line("# " + h.summary());
    line("# Use: schedlab run SCENARIO --machine FILE, or machine: {file: FILE} in a scenario.");
    if (c == null) {
      line("# Costs are the model's defaults; `schedlab host --calibrate` measures this machine's.");
    }
    for (String n : h.notes()) {
      comment("", n);
    }
  }

  private void machine(HostDescription h, Calibration c) {
    line("machine:");
    value("  ", "sockets", h.sockets());
    value("  ", "cores_per_socket", h.coresPerSocket());
    value("  ", "threads_per_core", h.threadsPerCore());
    value("  ", "cores_per_llc", h.coresPerLlc());
    value("  ", "numa_nodes_per_socket", h.numaNodesPerSocket());
    comment("  ", h.idleStates().source());
    if (h.idleStates().value().isEmpty()) {
      line("  idle_states: hlt-only");
    } else {
      line("  idle_states:");
      for (IdleStateSpec s : h.idleStates().value()) {
        line("    - {name: " + s.name() + ", exit_latency: " + s.exitLatencyNs()
            + ", target_residency: " + s.targetResidencyNs() + ", polling: " + s.polling()
            + (s.irqEnable() ? ", irq_enable: true" : "") + "}");
      }
    }
    comment("  ", h.disabledStates().source());
    line("  disabled_states: " + list(h.disabledStates().value()));
    value("  ", "idle_governor", h.governor());
    value("  ", "virtualized", h.virtualized());
    comment("  ", h.isolatedCpus().source());
    line("  isolated_cpus: \"" + h.isolatedCpus().value() + "\"");
    comment("  ", h.mitigations().source());
    line("  mitigations: " + list(h.mitigations().value()));
    if (c != null && c.noise() != null && c.noise().value().active()) {
      NoiseSpec n = c.noise().value();
      comment("  ", c.noise().source());
      line("  noise:");
      line("    rate: " + String.format(java.util.Locale.ROOT, "%.3f", n.ratePerSecond()));
      line("    durations: [" + n.durationsNs().stream().map(String::valueOf)
          .collect(Collectors.joining(", ")) + "]");
    }
  }

  private void kernel(HostDescription h, Calibration c) {
    line("kernel:");
    value("  ", "hz", h.hz());
    value("  ", "preempt", h.preempt());
    Map<String, Sourced<Long>> params = new LinkedHashMap<>();
    params.put("sched.timer_slack", h.timerSlackNs());
    params.putAll(h.params());
    if (c != null) {
      params.putAll(c.params());
    }
    line("  params:");
    for (Map.Entry<String, Sourced<Long>> e : params.entrySet()) {
      comment("    ", e.getValue().source());
      line("    " + e.getKey() + ": " + e.getValue().value());
    }
  }

  private void value(String indent, String key, Sourced<?> v) {
    comment(indent, v.source());
    line(indent + key + ": " + v.value());
  }

  /** A comment, wrapped at 100 columns; continuation lines are indented two more. */
  private void comment(String indent, String text) {
    String prefix = indent + "# ";
    StringBuilder cur = new StringBuilder(prefix);
    boolean empty = true;
    for (String word : text.split(" ")) {
      if (!empty && cur.length() + 1 + word.length() > 100) {
        line(cur.toString());
        cur = new StringBuilder(prefix + " ");
        empty = true;
      }
      cur.append(empty ? "" : " ").append(word);
      empty = false;
    }
    line(cur.toString());
  }

  private static String list(List<String> items) {
    return "[" + String.join(", ", items) + "]";
  }

  private void line(String s) {
    out.append(s).append('\n');
  }
}
