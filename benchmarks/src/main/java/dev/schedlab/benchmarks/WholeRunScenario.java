package dev.schedlab.benchmarks;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.KernelSpec;
import dev.schedlab.engine.config.MachineSpec;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.WorkloadSpec;
import java.util.List;
import java.util.Map;

/**
 * The whole-run benchmark's scenario, built from the scenario records: a 128-CPU machine (2 sockets
 * x 32 cores x SMT2, "icx" idle states, menu governor, one LLC per socket), HZ=1000, voluntary
 * preemption, 512 CPU-bound fair tasks (a fixed 10 ms {@code user} step, looping: pure compute) and
 * 512 sleepers ({@code user} exp mean 50 us, {@code sleep} exp mean 1 ms, looping). For the scaling
 * table the machine can have another number of such sockets (16 CPUs each when {@code sockets} is 1
 * and {@code halfSocket}) and the tasks another multiple (4 per CPU of each kind by default).
 */
public final class WholeRunScenario {
  /** Number of CPUs of the machine. */
  public static final int CPUS = 128;

  /** CPU-bound tasks. */
  public static final int HOGS = 512;

  /** Sleeping tasks. */
  public static final int SLEEPERS = 512;

  static final long US = 1_000;
  static final long MS = 1_000_000;

  private WholeRunScenario() {}

  /** The scenario for {@code durationNs} of simulated time with {@code seed}. */
  public static Scenario build(long durationNs, long seed) {
    return build(durationNs, seed, CPUS, 1);
  }

  /**
   * The scenario on {@code cpus} CPUs (a multiple of 64, or 32: sockets of 32 SMT2 cores, or one of
   * 16) with {@code taskScale} times 4 hogs and 4 sleepers per CPU.
   */
  public static Scenario build(long durationNs, long seed, int cpus, int taskScale) {
    if (durationNs <= 0) {
      throw new IllegalArgumentException("duration must be > 0 ns, got " + durationNs);
    }
    if ((cpus != 32 && (cpus <= 0 || cpus % 64 != 0)) || taskScale <= 0) {
      throw new IllegalArgumentException(
          "cpus must be 32 or a multiple of 64 and the task scale"
              + " positive, got "
              + cpus
              + " and "
              + taskScale);
    }
    int perKind = cpus * taskScale * HOGS / CPUS;
    return new Scenario(
        "whole-run-" + cpus + "cpu-" + 2 * perKind + "tasks",
        seed,
        durationNs,
        machine(cpus),
        kernel(),
        new WorkloadSpec(List.of(hogs(perKind), sleepers(perKind))),
        List.of());
  }

  static MachineSpec machine() {
    return machine(CPUS);
  }

  static MachineSpec machine(int cpus) {
    return cpus == 32
        ? new MachineSpec("icx-1s", 1, 16, 2, 0, 1, "icx", List.of(), "menu", false, "")
        : new MachineSpec(
            "icx-" + cpus / 64 + "s", cpus / 64, 32, 2, 0, 1, "icx", List.of(), "menu", false, "");
  }

  static KernelSpec kernel() {
    return new KernelSpec("voluntary", 1000, Map.of(), Map.of(), Long.MAX_VALUE);
  }

  static TaskSpec hogs() {
    return hogs(HOGS);
  }

  static TaskSpec sleepers() {
    return sleepers(SLEEPERS);
  }

  static TaskSpec hogs(int count) {
    return fair("hog", count, List.of(new StepSpec.User(Dist.fixed(10 * MS))));
  }

  static TaskSpec sleepers(int count) {
    return fair(
        "sleeper",
        count,
        List.of(new StepSpec.User(exp(50 * US)), new StepSpec.Sleep(exp(1 * MS))));
  }

  private static Dist exp(long meanNs) {
    return new Dist(Dist.Kind.EXP, meanNs, 0);
  }

  private static TaskSpec fair(String name, int count, List<StepSpec> program) {
    return new TaskSpec(name, count, "normal", 0, 0, 0, 0, 0, "", false, false, "own", 0, program);
  }
}
