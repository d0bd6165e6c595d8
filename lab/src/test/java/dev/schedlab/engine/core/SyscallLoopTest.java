package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.lab.scenario.ScenarioException;
import dev.schedlab.lab.scenario.ScenarioLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A loop inside a syscall's kernel path (a page walk kept as one page's segments and a count) runs
 * exactly as the same path written out: same events, same lock statistics, one entry and one exit
 * to user.
 */
class SyscallLoopTest {
  private static final String HEAD =
      "duration: 20ms\nmachine: {sockets: 1, cores_per_socket: 2}\nkernel: {preempt: voluntary}\n"
          + "workload:\n  locks: {z: {kind: spinlock}}\n  tasks:\n";
  private static final String PAGE =
      "{kernel: [{duration: {uniform: [100ns, 300ns]}, ends: cond_resched},"
          + " {lock: z, irqs_off: true}, {duration: {uniform: [50ns, 150ns]}}, {unlock: z}]}";

  private static String task(String name, String syscall) {
    return "    - {name: "
        + name
        + ", count: 2, program: [{user: {exp: 2us}}, {syscall: "
        + syscall
        + "}]}\n";
  }

  private static Kernel run(String body) {
    Kernel k = TestKernels.kernel(HEAD + task("w", body));
    k.run(20_000_000);
    return k;
  }

  @Test
  void aLoopRunsAsThePathWrittenOut() {
    String written =
        "["
            + String.join(
                    ", ",
                    java.util.Collections.nCopies(
                        3, "{kernel: [{duration: 1us}]}, {loop: {count: 4, body: [" + PAGE + "]}}"))
                .replace(
                    "{loop: {count: 4, body: [" + PAGE + "]}}",
                    String.join(", ", java.util.Collections.nCopies(4, PAGE)))
            + "]";
    String looped =
        "[{loop: {count: 3, body: [{kernel: [{duration: 1us}]}, {loop: {count: 4, body: ["
            + PAGE
            + "]}}]}}]";
    Kernel a = run(written);
    Kernel b = run(looped);
    assertThat(a.events()).isGreaterThan(1000);
    assertThat(b.digest()).isEqualTo(a.digest());
    assertThat(b.metricsSnapshot().get("lock_stat"))
        .isEqualTo(a.metricsSnapshot().get("lock_stat"));
  }

  @Test
  void aSyscallLoopHoldsOnlySyscallParts() {
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    "t.yaml",
                    HEAD + task("w", "[{loop: {count: 2, body: [{user: 1us}]}}]"),
                    true,
                    "t",
                    List.of()))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("a syscall's parts are kernel, wake, block and loop steps");
  }
}
