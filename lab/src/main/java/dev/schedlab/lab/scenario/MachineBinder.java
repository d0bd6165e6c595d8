package dev.schedlab.lab.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schedlab.engine.config.CpuList;
import dev.schedlab.engine.config.IdleStateSpec;
import dev.schedlab.engine.config.MachineSpec;
import dev.schedlab.engine.config.NoiseSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Binds {@code machine:}: a preset from the resources (or a machine file's fields, grafted in by
 * {@link MachineFile}), then the scenario's fields over it.
 */
final class MachineBinder {
  /** Preset names, each a resource {@code presets/NAME.yaml}. */
  static final List<String> PRESETS =
      List.of("small-x86", "icelake-2s", "epyc-2s", "kvm-4vcpu", "aarch64-128", "power9");

  /** Idle-state table names the engine knows (power9 is new: see docs/scenarios.md). */
  static final List<String> IDLE_TABLES =
      List.of("skx", "icx", "spr", "amd-acpi", "poll-only", "hlt-only", "power9");

  /** Mitigation names a machine may list (docs/scenarios.md, Param's cost.mitigation_*). */
  static final List<String> MITIGATIONS =
      List.of("pti", "pcid", "retpoline", "rsb_fill", "ibpb", "verw", "return_thunk");

  static final String[] FIELDS = {
    "preset",
    "file",
    "sockets",
    "cores_per_socket",
    "threads_per_core",
    "cores_per_llc",
    "numa_nodes_per_socket",
    "idle_states",
    "disabled_states",
    "idle_governor",
    "virtualized",
    "isolated_cpus",
    "mitigations",
    "noise",
    "cpu_capacity",
    "frequency_pct"
  };
  private static final String[] STATE_FIELDS = {
    "name", "exit_latency", "target_residency", "polling", "irq_enable"
  };

  private MachineBinder() {}

  static MachineSpec bind(Val machine) throws ScenarioException {
    Obj user = machine.node() == null || machine.node().isNull() ? null : machine.object(FIELDS);
    String preset =
        user == null
            ? ScenarioLoader.DEFAULT_PRESET
            : user.name("preset", ScenarioLoader.DEFAULT_PRESET);
    if (!PRESETS.contains(preset)) {
      throw Objects.requireNonNull(user) // a preset was given
          .get("preset")
          .error("unknown preset " + preset + "; expected one of " + String.join(", ", PRESETS));
    }
    ObjectNode merged = preset(preset).deepCopy();
    if (user != null) {
      for (String f : user.names()) {
        if (!f.equals("preset")) {
          merged.set(f, user.get(f).node());
        }
      }
    }
    Obj m = new Val(machine.tree(), machine.path(), merged).object(FIELDS);
    if (m.has("file")) {
      throw m.get("file")
          .error(
              "a machine file is read with the scenario file; give it in the "
                  + "scenario (machine: {file: PATH}) or as --machine FILE, not through --set");
    }
    int sockets = m.integer("sockets", 1, 1, 64);
    int cores = m.integer("cores_per_socket", 1, 1, 1024);
    int threads = m.integer("threads_per_core", 1, 1, 8);
    int perLlc = m.integer("cores_per_llc", 0, 0, cores);
    if (perLlc > 0 && cores % perLlc != 0) {
      throw m.get("cores_per_llc")
          .error("expected a divisor of cores_per_socket (" + cores + "), got " + perLlc);
    }
    int numa = m.integer("numa_nodes_per_socket", 1, 1, cores);
    String idle = "skx";
    List<IdleStateSpec> custom = List.of();
    if (m.has("idle_states") && m.get("idle_states").node().isArray()) {
      idle = MachineSpec.CUSTOM_IDLE_TABLE;
      custom = states(m.get("idle_states"));
    } else {
      idle = m.choice("idle_states", "skx", IDLE_TABLES.toArray(new String[0]));
    }
    List<String> disabled = new ArrayList<>();
    if (m.has("disabled_states")) {
      for (Val v : m.get("disabled_states").list()) {
        disabled.add(v.name());
      }
    }
    String governor = m.name("idle_governor", "menu");
    boolean virt = m.bool("virtualized", false);
    String isolated = m.text("isolated_cpus", "");
    int nrCpus = sockets * cores * threads;
    try {
      isolated = CpuList.format(CpuList.parse(isolated, nrCpus));
    } catch (IllegalArgumentException e) {
      throw m.get("isolated_cpus").error(String.valueOf(e.getMessage()));
    }
    List<String> mitigations = new ArrayList<>();
    if (m.has("mitigations")) {
      for (Val v : m.get("mitigations").list()) {
        String name = v.name();
        if (!MITIGATIONS.contains(name)) {
          throw v.error(
              "unknown mitigation " + name + "; expected one of " + String.join(", ", MITIGATIONS));
        }
        mitigations.add(name);
      }
    }
    NoiseSpec noise = m.has("noise") ? noise(m.get("noise")) : NoiseSpec.NONE;
    List<Integer> capacity = capacities(m, nrCpus);
    int freq = m.integer("frequency_pct", 100, 1, 100);
    return new MachineSpec(
        preset,
        sockets,
        cores,
        threads,
        perLlc,
        numa,
        idle,
        disabled,
        governor,
        virt,
        isolated,
        custom,
        mitigations,
        noise,
        capacity,
        freq);
  }

  /** A machine file's own idle-state table, shallowest first. */
  private static List<IdleStateSpec> states(Val list) throws ScenarioException {
    List<IdleStateSpec> out = new ArrayList<>();
    for (Val v : list.list()) {
      Obj s = v.object(STATE_FIELDS);
      String name = s.required("name").name();
      out.add(
          new IdleStateSpec(
              name,
              s.durationNs("exit_latency", 0),
              s.durationNs("target_residency", 0),
              s.bool("polling", false),
              s.bool("irq_enable", false)));
    }
    if (out.isEmpty()) {
      throw list.error("expected at least one idle state");
    }
    return out;
  }

  private static NoiseSpec noise(Val v) throws ScenarioException {
    Obj o = v.object("bins");
    List<NoiseSpec.Bin> bins = new ArrayList<>();
    for (Val b : o.required("bins").list()) {
      Obj bin = b.object("from", "to", "rate");
      long from = bin.required("from").durationNs();
      long to = bin.required("to").durationNs();
      if (to <= from) {
        throw bin.get("to").error("expected to > from (" + from + "ns), got " + to + "ns");
      }
      bins.add(new NoiseSpec.Bin(from, to, bin.required("rate").number(0, 1_000_000)));
    }
    return new NoiseSpec(bins);
  }

  /**
   * {@code cpu_capacity: {CPULIST: CAPACITY, ...}}: CPUs not listed keep 1024 (the biggest CPU's
   * capacity, {@code SCHED_CAPACITY_SCALE}); empty when every CPU has 1024.
   */
  private static List<Integer> capacities(Obj m, int nrCpus) throws ScenarioException {
    if (!m.has("cpu_capacity")) {
      return List.of();
    }
    Obj caps = m.get("cpu_capacity").object();
    Integer[] out = new Integer[nrCpus];
    java.util.Arrays.fill(out, 1024);
    boolean any = false;
    for (String list : caps.names()) {
      java.util.BitSet set;
      try {
        set = CpuList.parse(list, nrCpus);
      } catch (IllegalArgumentException e) {
        throw caps.get(list).error(String.valueOf(e.getMessage()));
      }
      int cap = caps.get(list).integer(1, 1024);
      for (int c = set.nextSetBit(0); c >= 0; c = set.nextSetBit(c + 1)) {
        out[c] = cap;
        any |= cap != 1024;
      }
    }
    return any ? List.of(out) : List.of();
  }

  /** The preset's fields as a tree. */
  static JsonNode preset(String name) throws ScenarioException {
    String res = "presets/" + name + ".yaml";
    try (InputStream in = MachineBinder.class.getResourceAsStream(res)) {
      if (in == null) {
        throw new ScenarioException(
            "preset " + name + ": resource " + res + " missing from the engine jar");
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return LocatedTree.parse("preset " + name, text, true).root();
    } catch (IOException e) {
      throw new ScenarioException("preset " + name + ": " + e.getMessage(), e);
    }
  }
}
