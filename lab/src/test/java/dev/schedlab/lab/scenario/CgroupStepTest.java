package dev.schedlab.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code cgroup:} step of a scenario's program: a running task moves itself to a cgroup. */
class CgroupStepTest {
  @TempDir Path dir;

  private Scenario load(String step) throws Exception {
    Path f = dir.resolve("s.yaml");
    Files.writeString(
        f,
        "name: s\nduration: 200ms\n"
            + "kernel:\n  cgroups:\n    capped: {max: \"2ms 10ms\"}\n"
            + "workload:\n  tasks:\n    - name: t\n      cpus: \"0\"\n      program:\n"
            + "        - user: 1ms\n"
            + "        - "
            + step
            + "\n        - user: 20ms\n        - exit\n");
    return ScenarioLoader.load(f);
  }

  private static long exitNs(Scenario s) throws Exception {
    return ((Number) RtAppFixtures.run(s).metrics().get("task.last_exit_ns")).longValue();
  }

  @Test
  void aTaskMovedIntoACappedGroupRunsAtItsQuota() throws Exception {
    // 20 ms of work at 2 ms per 10 ms period: about 100 ms; staying in the root group: 21 ms,
    // plus the grace period the lone write waits for (a few ticks).
    assertThat(exitNs(load("cgroup: /"))).isLessThan(30_000_000L);
    assertThat(exitNs(load("cgroup: capped"))).isBetween(90_000_000L, 115_000_000L);
  }

  @Test
  void aCgroupStepNamingNoCgroupIsRefusedWithTheKnownOnes() {
    assertThatThrownBy(() -> load("cgroup: nosuch"))
        .hasMessageContaining("s.yaml")
        .hasMessageContaining("task t: cgroup: nosuch is not a cgroup of kernel.cgroups")
        .hasMessageContaining("one of capped");
  }
}
