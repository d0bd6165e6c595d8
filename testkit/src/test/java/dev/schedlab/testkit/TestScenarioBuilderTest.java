package dev.schedlab.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestScenarioBuilderTest {
  @Test
  void writesTheScenarioFileFormat() {
    TestScenario s =
        TestScenario.builder()
            .duration("10ms")
            .seed(3)
            .machine("preset", "small-x86")
            .machine("isolated_cpus", "1-3")
            .kernel("preempt", "full")
            .kernel("hz", 250)
            .task(
                "hog",
                t -> t.cpus("0").policy("fifo").field("rt_priority", 50).program("{user: 1ms}"))
            .tool("hackbench", "-g 1 -l 5")
            .build();
    assertThat(s.toString())
        .isEqualTo(
            String.join(
                "\n",
                "duration: 10ms",
                "seed: 3",
                "machine: {preset: small-x86, isolated_cpus: \"1-3\"}",
                "kernel: {preempt: full, hz: 250}",
                "workload:",
                "  tools:",
                "    - hackbench: \"-g 1 -l 5\"",
                "  tasks:",
                "    - {name: hog, cpus: \"0\", policy: fifo, rt_priority: 50, program: [{user: 1ms}]}",
                ""));
    assertThat(s.load().durationNs()).isEqualTo(10_000_000L);
    assertThat(s.load().seed()).isEqualTo(3);
  }
}
