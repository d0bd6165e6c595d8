package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Task groups on one CPU: cpu.weight shares, the group hierarchy, autogroup and cpu.max. */
class TaskGroupTest {
  private static final long SECOND = 1_000_000_000L;

  private static Kernel oneCpu(String kernel, String tasks) {
    return TestKernels.kernel(
        String.join(
            "\n",
            "duration: 1s",
            "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1, idle_states: poll-only}",
            "kernel:",
            kernel,
            "workload:",
            "  tasks:",
            tasks,
            ""));
  }

  private static double share(Kernel k, String prefix) {
    long sum = 0;
    for (Task t : k.tasks) {
      if (t.comm.startsWith(prefix)) {
        sum += t.sumExec;
      }
    }
    return (double) sum / SECOND;
  }

  @Test
  void twoGroupsOfWeight2To1ShareACpu2To1() {
    Kernel k =
        oneCpu(
            String.join(
                "\n",
                "  cgroups:",
                "    a: {weight: 200, tasks: [hog-a]}",
                "    b: {weight: 100, tasks: [hog-b]}"),
            String.join(
                "\n",
                "    - {name: hog-a, program: [{user: 1s}]}",
                "    - {name: hog-b, program: [{user: 1s}]}"));
    k.run(SECOND);
    assertThat(share(k, "hog-a")).isCloseTo(2.0 / 3, within(0.02));
    assertThat(share(k, "hog-b")).isCloseTo(1.0 / 3, within(0.02));
  }

  @Test
  void aGroupSharesAmongItsTasksNotWithTheOtherGroupsTasks() {
    // Equal weights: group a's three tasks together get what b's single task gets.
    Kernel k =
        oneCpu(
            String.join("\n", "  cgroups:", "    a: {tasks: [many]}", "    b: {tasks: [one]}"),
            String.join(
                "\n",
                "    - {name: many, count: 3, program: [{user: 1s}]}",
                "    - {name: one, program: [{user: 1s}]}"));
    k.run(SECOND);
    assertThat(share(k, "many")).isCloseTo(0.5, within(0.02));
    assertThat(share(k, "one")).isCloseTo(0.5, within(0.02));
    assertThat(share(k, "many/0")).isCloseTo(1.0 / 6, within(0.02));
  }

  @Test
  void autogroupGivesEachSessionAnEqualShare() {
    String tasks =
        String.join(
            "\n",
            "    - {name: many, count: 4, program: [{user: 1s}]}",
            "    - {name: one, program: [{user: 1s}]}");
    Kernel flat = oneCpu("  autogroup: false", tasks);
    flat.run(SECOND);
    assertThat(share(flat, "one")).isCloseTo(0.2, within(0.02));
    Kernel auto = oneCpu("  autogroup: true", tasks);
    auto.run(SECOND);
    assertThat(share(auto, "one")).isCloseTo(0.5, within(0.02));
    assertThat(auto.taskGroups).hasSize(3); // root + two sessions
  }

  @Test
  void cpuMax50msPer100msGivesHalfTheCpuInThePeriodTimersPattern() {
    Kernel k =
        oneCpu(
            String.join("\n", "  cgroups:", "    capped: {max: \"50000 100000\", tasks: [hog]}"),
            "    - {name: hog, program: [{user: 1s}]}");
    Task hog = k.tasks.get(0);
    int runningEarly = 0;
    int runningLate = 0;
    for (int p = 1; p < 10; p++) {
      k.run(p * 100_000_000L + 25_000_000L);
      runningEarly += hog.onCpu ? 1 : 0;
      k.run(p * 100_000_000L + 75_000_000L);
      runningLate += hog.onCpu ? 1 : 0;
    }
    k.run(SECOND);
    // The quota runs out 50 ms into each period (the timer started with the first runtime
    // request at t = 0): running in the first half, throttled and idle in the second.
    assertThat(runningEarly).isEqualTo(9);
    assertThat(runningLate).isZero();
    assertThat(share(k, "hog")).isCloseTo(0.5, within(0.01));
    assertThat(TestKernels.counter(k, "fair.throttles")).isBetween(9L, 11L);
    assertThat(TestKernels.counter(k, "fair.unthrottles")).isBetween(9L, 10L);
    assertThat(k.cpus[0].curr.idleTask).isTrue(); // throttled at the end of its tenth period
  }
}
