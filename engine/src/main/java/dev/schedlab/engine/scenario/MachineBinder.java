package dev.schedlab.engine.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Binds {@code machine:}: a preset from the resources, then the scenario's fields over it. */
final class MachineBinder {
  /** Preset names, each a resource {@code presets/NAME.yaml}. */
  static final List<String> PRESETS =
      List.of("small-x86", "icelake-2s", "epyc-2s", "kvm-4vcpu", "aarch64-128", "power9");

  /** Idle-state table names the engine knows (power9 is new: see docs/scenarios.md). */
  static final List<String> IDLE_TABLES =
      List.of("skx", "icx", "spr", "amd-acpi", "poll-only", "hlt-only", "power9");

  private static final String[] FIELDS = {
    "preset", "sockets", "cores_per_socket", "threads_per_core", "cores_per_llc",
    "numa_nodes_per_socket", "idle_states", "disabled_states", "idle_governor", "virtualized",
    "isolated_cpus", "cpu_capacity", "frequency_pct"
  };

  private MachineBinder() {}

  static MachineSpec bind(Val machine) throws ScenarioException {
    Obj user = machine.node() == null || machine.node().isNull()
        ? null : machine.object(FIELDS);
    String preset = user == null ? ScenarioLoader.DEFAULT_PRESET
        : user.name("preset", ScenarioLoader.DEFAULT_PRESET);
    if (!PRESETS.contains(preset)) {
      throw user.get("preset").error(
          "unknown preset " + preset + "; expected one of " + String.join(", ", PRESETS));
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
    int sockets = m.integer("sockets", 1, 1, 64);
    int cores = m.integer("cores_per_socket", 1, 1, 1024);
    int threads = m.integer("threads_per_core", 1, 1, 8);
    int perLlc = m.integer("cores_per_llc", 0, 0, cores);
    if (perLlc > 0 && cores % perLlc != 0) {
      throw m.get("cores_per_llc").error(
          "expected a divisor of cores_per_socket (" + cores + "), got " + perLlc);
    }
    int numa = m.integer("numa_nodes_per_socket", 1, 1, cores);
    String idle = m.choice("idle_states", "skx", IDLE_TABLES.toArray(new String[0]));
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
      throw m.get("isolated_cpus").error(e.getMessage());
    }
    List<Integer> capacity = capacities(m, nrCpus);
    int freq = m.integer("frequency_pct", 100, 1, 100);
    return new MachineSpec(preset, sockets, cores, threads, perLlc, numa, idle, disabled, governor,
        virt, isolated, capacity, freq);
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
        throw caps.get(list).error(e.getMessage());
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
        throw new ScenarioException("preset " + name + ": resource " + res + " missing from the engine jar");
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return LocatedTree.parse("preset " + name, text, true).root();
    } catch (IOException e) {
      throw new ScenarioException("preset " + name + ": " + e.getMessage(), e);
    }
  }
}
