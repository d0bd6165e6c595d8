package dev.schedlab.engine.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.api.SchedMode;
import dev.schedlab.api.hook.MetricsHook;
import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.plugin.HookPoint;
import org.junit.jupiter.api.Test;

class GuardTest {
  private static PluginSlot slot(String id) {
    return new PluginSupervisor().slot(id);
  }

  @Test
  void errorsAreAttributedButJvmFailuresOtherThanHeapAndStackPassThrough() {
    PickOverrideHook vmError =
        (cpu, mode, prev, rq) -> {
          throw new InternalError("jvm");
        };
    PickOverrideHook guarded =
        (PickOverrideHook) HookGuards.guard(HookPoint.H1_PICK_OVERRIDE, slot("p"), vmError);
    assertThatThrownBy(() -> guarded.pickOverride(null, SchedMode.NONE, null, null))
        .isInstanceOf(InternalError.class);

    PickOverrideHook recursion =
        (cpu, mode, prev, rq) -> {
          throw new StackOverflowError();
        };
    PickOverrideHook g2 =
        (PickOverrideHook) HookGuards.guard(HookPoint.H1_PICK_OVERRIDE, slot("p"), recursion);
    assertThatThrownBy(() -> g2.pickOverride(null, SchedMode.NONE, null, null))
        .isInstanceOfSatisfying(PluginFailure.class, f -> assertThat(f.pluginId()).isEqualTo("p"));

    MetricsHook linkage =
        (event, cpu, pid, t) -> {
          throw new NoClassDefFoundError("gone");
        };
    MetricsHook m = (MetricsHook) HookGuards.guard(HookPoint.H15_METRICS, slot("p"), linkage);
    assertThatThrownBy(() -> m.on("sched_switch", 0, 1, 0))
        .isInstanceOfSatisfying(PluginFailure.class, f -> assertThat(f.hook()).isEqualTo("H15 on"));
  }

  @Test
  void failureOfAnotherPluginIsNotReattributed() {
    PluginFailure inner = new PluginFailure("b", "H5 onTick", new IllegalStateException());
    PickOverrideHook callsB =
        (cpu, mode, prev, rq) -> {
          throw inner;
        };
    PickOverrideHook guarded =
        (PickOverrideHook) HookGuards.guard(HookPoint.H1_PICK_OVERRIDE, slot("a"), callsB);
    assertThatThrownBy(() -> guarded.pickOverride(null, SchedMode.NONE, null, null))
        .isSameAs(inner);
  }
}
