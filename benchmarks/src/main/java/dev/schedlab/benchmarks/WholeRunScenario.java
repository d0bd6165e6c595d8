package dev.schedlab.benchmarks;

import dev.schedlab.engine.scenario.Dist;
import dev.schedlab.engine.scenario.KernelSpec;
import dev.schedlab.engine.scenario.MachineSpec;
import dev.schedlab.engine.scenario.Scenario;
import dev.schedlab.engine.scenario.StepSpec;
import dev.schedlab.engine.scenario.TaskSpec;
import dev.schedlab.engine.scenario.WorkloadSpec;
import java.util.List;
import java.util.Map;

/**
 * The whole-run benchmark's scenario, built from the scenario records: a 128-CPU machine (2
 * sockets x 32 cores x SMT2, "icx" idle states, menu governor, one LLC per socket), HZ=1000,
 * voluntary preemption, 512 CPU-bound fair tasks (a fixed 10 ms {@code user} step, looping: pure
 * compute) and 512 sleepers ({@code user} exp mean 50 us, {@code sleep} exp mean 1 ms, looping).
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
    if (durationNs <= 0) {
      throw new IllegalArgumentException("duration must be > 0 ns, got " + durationNs);
    }
    return new Scenario("whole-run-128cpu-1024tasks", seed, durationNs, machine(), kernel(),
        new WorkloadSpec(List.of(hogs(), sleepers())), List.of());
  }

  static MachineSpec machine() {
    return new MachineSpec("icx-2s", 2, 32, 2, 0, 1, "icx", List.of(), "menu", false, "");
  }

  static KernelSpec kernel() {
    return new KernelSpec("voluntary", 1000, Map.of(), Map.of(), Long.MAX_VALUE);
  }

  static TaskSpec hogs() {
    return fair("hog", HOGS, List.of(new StepSpec.User(Dist.fixed(10 * MS))));
  }

  static TaskSpec sleepers() {
    return fair("sleeper", SLEEPERS, List.of(
        new StepSpec.User(exp(50 * US)),
        new StepSpec.Sleep(exp(1 * MS))));
  }

  private static Dist exp(long meanNs) {
    return new Dist(Dist.Kind.EXP, meanNs, 0);
  }

  private static TaskSpec fair(String name, int count, List<StepSpec> program) {
    return new TaskSpec(name, count, "normal", 0, 0, 0, 0, 0, "", false, false, "own", 0, program);
  }
}
