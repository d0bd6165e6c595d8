package dev.schedlab.testkit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Puts a scenario together in code; {@link #build()} writes it as YAML (the file format of
 * docs/scenarios.md, so anything a scenario file can say has a {@link #machine}, {@link #kernel},
 * {@link #task} or {@link #tool} form here). Values are YAML scalars or flow collections, for
 * example {@code "{user: 1ms}"} or {@code "{uniform: [500us, 3ms]}"}.
 *
 * <pre>{@code
 * TestScenario s = TestScenario.builder()
 *     .duration("100ms").machine("preset", "small-x86").kernel("preempt", "full")
 *     .task("hog", t -> t.cpus("0").program("{user: 10ms}"))
 *     .task("sleeper", t -> t.count(4).program("{user: 50us}", "{sleep: 1ms}"))
 *     .build();
 * }</pre>
 */
public final class TestScenarioBuilder {
  private final Map<String, String> top = new LinkedHashMap<>();
  private final Map<String, String> machine = new LinkedHashMap<>();
  private final Map<String, String> kernel = new LinkedHashMap<>();
  private final List<String> tasks = new ArrayList<>();
  private final List<String> tools = new ArrayList<>();

  TestScenarioBuilder() {}

  /** Simulated time, e.g. {@code 200ms}. */
  public TestScenarioBuilder duration(String duration) {
    top.put("duration", duration);
    return this;
  }

  /** The workload seed. */
  public TestScenarioBuilder seed(long seed) {
    top.put("seed", Long.toString(seed));
    return this;
  }

  /**
   * A {@code machine:} field, e.g. {@code ("preset", "kvm-4vcpu")} or {@code ("idle_governor",
   * "my-policy")}.
   */
  public TestScenarioBuilder machine(String key, Object value) {
    machine.put(key, scalar(value));
    return this;
  }

  /** A {@code kernel:} field, e.g. {@code ("preempt", "full")} or {@code ("hz", 250)}. */
  public TestScenarioBuilder kernel(String key, Object value) {
    kernel.put(key, scalar(value));
    return this;
  }

  /** A task group named {@code name}; {@code spec} sets its fields. */
  public TestScenarioBuilder task(String name, Consumer<Task> spec) {
    Task t = new Task(name);
    spec.accept(t);
    tasks.add(t.yaml());
    return this;
  }

  /** A benchmark tool with its arguments, e.g. {@code ("cyclictest", "-t1 -i 1000 -l 100")}. */
  public TestScenarioBuilder tool(String tool, String args) {
    tools.add(tool + ": " + quote(args));
    return this;
  }

  /** The scenario. */
  public TestScenario build() {
    StringBuilder y = new StringBuilder();
    top.forEach((k, v) -> y.append(k).append(": ").append(v).append('\n'));
    if (!machine.isEmpty()) {
      y.append("machine: ").append(flow(machine)).append('\n');
    }
    if (!kernel.isEmpty()) {
      y.append("kernel: ").append(flow(kernel)).append('\n');
    }
    if (!tasks.isEmpty() || !tools.isEmpty()) {
      y.append("workload:\n");
      if (!tools.isEmpty()) {
        y.append("  tools:\n");
        tools.forEach(t -> y.append("    - ").append(t).append('\n'));
      }
      if (!tasks.isEmpty()) {
        y.append("  tasks:\n");
        tasks.forEach(t -> y.append("    - ").append(t).append('\n'));
      }
    }
    return TestScenario.yaml(y.toString());
  }

  /** One task group's fields (docs/scenarios.md, tasks). */
  public static final class Task {
    private final Map<String, String> fields = new LinkedHashMap<>();
    private final List<String> program = new ArrayList<>();

    private Task(String name) {
      fields.put("name", scalar(name));
    }

    /** Tasks in the group. */
    public Task count(int count) {
      return field("count", count);
    }

    /** Affinity, a CPU list such as {@code "0-3,8"}. */
    public Task cpus(String cpus) {
      return field("cpus", cpus);
    }

    /**
     * {@code normal}, {@code batch}, {@code idle}, {@code fifo}, {@code rr}, {@code deadline},
     * {@code ext}.
     */
    public Task policy(String policy) {
      return field("policy", policy);
    }

    /** Nice value of fair tasks. */
    public Task nice(int nice) {
      return field("nice", nice);
    }

    /** Any other task field, e.g. {@code ("rt_priority", 50)} or {@code ("per_cpu", true)}. */
    public Task field(String key, Object value) {
      fields.put(key, scalar(value));
      return this;
    }

    /** The program's steps, each a YAML step such as {@code "{user: 1ms}"} or {@code "exit"}. */
    public Task program(String... steps) {
      program.addAll(List.of(steps));
      return this;
    }

    private String yaml() {
      if (program.isEmpty()) {
        throw new IllegalStateException("task " + fields.get("name") + ": no program steps");
      }
      Map<String, String> all = new LinkedHashMap<>(fields);
      all.put("program", "[" + String.join(", ", program) + "]");
      return flow(all);
    }
  }

  private static String flow(Map<String, String> m) {
    return m.entrySet().stream()
        .map(e -> e.getKey() + ": " + e.getValue())
        .collect(Collectors.joining(", ", "{", "}"));
  }

  /**
   * Numbers and booleans as they are; strings bare when YAML would read them as the same string.
   */
  private static String scalar(Object v) {
    if (v instanceof Number || v instanceof Boolean) {
      return v.toString();
    }
    String s = v.toString();
    boolean plain =
        s.matches("[A-Za-z_][A-Za-z0-9_.+-]*|[0-9.]+(ns|us|ms|s)|\\{.*}|\\[.*]")
            && !s.matches("(?i)true|false|yes|no|on|off|null|~");
    return plain ? s : quote(s);
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
