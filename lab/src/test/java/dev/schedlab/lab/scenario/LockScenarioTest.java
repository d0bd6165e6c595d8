package dev.schedlab.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.StepSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code workload.locks}, the lock and unlock steps and items, and the checks at load. */
class LockScenarioTest {
  private static Scenario load(String locks, String program) throws ScenarioException {
    return ScenarioLoaderTest.yaml(
        "workload:\n  locks: "
            + locks
            + "\n  tasks:\n"
            + "    - name: t\n      program: "
            + program
            + "\n");
  }

  @Test
  void declarationsAndStepsParse() throws ScenarioException {
    Scenario s =
        load(
            "{zone: {kind: spinlock, per: node}, big: mutex, sem: rwsem}",
            "[{lock: big}, {user: 1us}, {unlock: big}, {lock: {name: sem, mode: read}}, {unlock: sem},"
                + " {kernel: [{lock: zone, irqs_off: true}, {duration: 2us}, {unlock: zone}]}]");
    assertThat(s.workload().locks())
        .containsExactlyInAnyOrder(
            new LockSpec("zone", LockSpec.Kind.SPINLOCK, LockSpec.Scope.NODE),
            new LockSpec("big", LockSpec.Kind.MUTEX),
            new LockSpec("sem", LockSpec.Kind.RWSEM));
    List<StepSpec> p = s.workload().tasks().get(0).program();
    assertThat(p.get(0)).isEqualTo(StepSpec.lockStep("big", false));
    assertThat(p.get(3)).isEqualTo(StepSpec.lockStep("sem", true));
    assertThat(((StepSpec.Kernel) p.get(5)).segments().get(0))
        .isEqualTo(StepSpec.Segment.lock("zone", true, false));
  }

  @Test
  void anUndeclaredLockIsRefusedWithItsPlace() {
    assertThatThrownBy(() -> load("{a: mutex}", "[{lock: b}, {unlock: b}]"))
        .hasMessageContaining("t.yaml:")
        .hasMessageContaining("lock b is not declared");
  }

  @Test
  void aSpinlockMustNotReturnToUserHeld() {
    assertThatThrownBy(() -> load("{s: spinlock}", "[{lock: s}, {unlock: s}]"))
        .hasMessageContaining("still held when the kernel path returns to user");
  }

  @Test
  void nothingMaySleepUnderASpinlock() {
    assertThatThrownBy(
            () ->
                load(
                    "{s: raw_spinlock}",
                    "[{kernel: [{lock: s}, {duration: 1us, ends: cond_resched}, {unlock: s}]}]"))
        .hasMessageContaining("ends in cond_resched while spinlock s is held");
    assertThatThrownBy(
            () ->
                load(
                    "{s: spinlock, m: mutex}",
                    "[{kernel: [{lock: s}, {lock: m}, {unlock: m}, {unlock: s}]}]"))
        .hasMessageContaining("sleeping lock m taken while spinlock s is held");
  }

  @Test
  void theApiVariantMustFitTheLock() {
    assertThatThrownBy(() -> load("{m: mutex}", "[{lock: {name: m, mode: read}}, {unlock: m}]"))
        .hasMessageContaining("mode read applies to rwsem only");
    assertThatThrownBy(
            () -> load("{m: mutex}", "[{kernel: [{lock: m, irqs_off: true}, {unlock: m}]}]"))
        .hasMessageContaining("irqs_off applies to spinlocks only");
    assertThatThrownBy(() -> load("{m: semaphore}", "[{user: 1us}]"))
        .hasMessageContaining("expected one of spinlock, raw_spinlock, mutex, rwsem");
  }

  @Test
  void aCacheItemMustGuardItemsThatExist() {
    assertThatThrownBy(
            () ->
                load(
                    "{}",
                    "[{kernel: [{cache: pcp, op: get, batch: 63, then: 2}, {duration: 1us}]}]"))
        .hasMessageContaining("then: 2 items do not follow");
  }
}
