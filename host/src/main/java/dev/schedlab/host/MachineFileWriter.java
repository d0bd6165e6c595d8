package dev.schedlab.host;

import dev.schedlab.engine.config.IdleStateSpec;
import dev.schedlab.engine.config.NoiseSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Writes a machine file: the {@code machine:} and {@code kernel:} sections of a scenario for the
 * described host, every value under a comment that says where it came from, calibrated costs with
 * their measurement and formula.
 */
public final class MachineFileWriter {
  private final StringBuilder out = new StringBuilder();

  private MachineFileWriter() {}

  /** The machine file of {@code host} with the model's default costs. */
  public static String write(HostDescription host, String version) {
    return write(host, Map.of(), Map.of(), null, version);
  }

  /**
   * The machine file of {@code host} with calibrated parameters {@code params}, the tools'
   * kernel-path parameters {@code toolParams} and the measured {@code noise} (may be null) folded
   * in.
   */
  public static String write(
      HostDescription host,
      Map<String, Sourced<Long>> params,
      Map<String, Map<String, Sourced<Long>>> toolParams,
      @Nullable Sourced<NoiseSpec> noise,
      String version) {
    MachineFileWriter w = new MachineFileWriter();
    boolean calibrated = !params.isEmpty() || noise != null;
    w.header(host, calibrated, version);
    w.machine(host, noise);
    w.kernel(host, params);
    w.tools(toolParams);
    return w.out.toString();
  }

  private void header(HostDescription h, boolean calibrated, String version) {
    line(
        "# schedlab machine file, written by `schedlab host"
            + (calibrated ? " --calibrate" : "")
            + "` (schedlab "
            + version
            + ")");
    line("# " + h.summary());
    line("# Use: schedlab run SCENARIO --machine FILE, or machine: {file: FILE} in a scenario.");
    if (!calibrated) {
      line(
          "# Costs are the model's defaults; `schedlab host --calibrate` measures this machine's.");
    }
    for (String n : h.notes()) {
      comment("", n);
    }
  }

  private void machine(HostDescription h, @Nullable Sourced<NoiseSpec> noise) {
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
        line(
            "    - {name: "
                + s.name()
                + ", exit_latency: "
                + s.exitLatencyNs()
                + ", target_residency: "
                + s.targetResidencyNs()
                + ", polling: "
                + s.polling()
                + (s.irqEnable() ? ", irq_enable: true" : "")
                + "}");
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
    if (noise != null && noise.value().active()) {
      comment("  ", noise.source());
      line("  noise:");
      line("    bins:");
      for (NoiseSpec.Bin b : noise.value().bins()) {
        line(
            String.format(
                java.util.Locale.ROOT,
                "      - {from: %d, to: %d, rate: %.4f}",
                b.fromNs(),
                b.toNs(),
                b.ratePerSecond()));
      }
    }
  }

  private void kernel(HostDescription h, Map<String, Sourced<Long>> calibrated) {
    line("kernel:");
    value("  ", "hz", h.hz());
    value("  ", "preempt", h.preempt());
    Map<String, Sourced<Long>> params = new LinkedHashMap<>();
    params.put("sched.timer_slack", h.timerSlackNs());
    params.putAll(h.params());
    params.putAll(calibrated);
    line("  params:");
    for (Map.Entry<String, Sourced<Long>> e : params.entrySet()) {
      comment("    ", e.getValue().source());
      line("    " + e.getKey() + ": " + e.getValue().value());
    }
  }

  /**
   * The tools' parameters measured here: every entry of the tool takes them unless it sets its own.
   */
  private void tools(Map<String, Map<String, Sourced<Long>>> toolParams) {
    if (toolParams.isEmpty()) {
      return;
    }
    line("tools:");
    for (Map.Entry<String, Map<String, Sourced<Long>>> t : toolParams.entrySet()) {
      line("  " + t.getKey() + ":");
      for (Map.Entry<String, Sourced<Long>> e : t.getValue().entrySet()) {
        comment("    ", e.getValue().source());
        line("    " + e.getKey() + ": " + e.getValue().value() + "ns");
      }
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
    for (String word : text.split(" ", -1)) {
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
