package dev.schedlab.lab.matrix;

import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import dev.schedlab.engine.plugin.PluginHost;
import java.util.Set;

/** In-process plugins for the matrix tests: two that both override the exclusive hook H1. */
final class TestPlugins {
  private TestPlugins() {}

  /** Throws from H1 on its first call: every run with it fails. */
  static final class Throwing implements SchedlabPlugin {
    @Override
    public PluginDescriptor descriptor() {
      return new PluginDescriptor(
          "throws-in-pick",
          "1.0.0",
          "test",
          Set.of(HookPoint.H1_PICK_OVERRIDE),
          Set.of(),
          ">=1.0.0 & <2.0.0");
    }

    @Override
    public void contribute(Contributions c, PluginOptions options) {
      c.hook(
          PickOverrideHook.class,
          (cpu, mode, prev, rq) -> {
            throw new IllegalStateException("boom");
          });
    }
  }

  /** Overrides H1 with mainline behaviour: runs like no plugin, clashes with {@link Throwing}. */
  static final class Quiet implements SchedlabPlugin {
    @Override
    public PluginDescriptor descriptor() {
      return new PluginDescriptor(
          "quiet-pick",
          "1.0.0",
          "test",
          Set.of(HookPoint.H1_PICK_OVERRIDE),
          Set.of(),
          ">=1.0.0 & <2.0.0");
    }

    @Override
    public Set<String> optionKeys() {
      return Set.of("level");
    }

    @Override
    public void contribute(Contributions c, PluginOptions options) {
      c.hook(PickOverrideHook.class, PickOverrideHook.MAINLINE);
    }
  }

  static PluginHost host() {
    return PluginHost.inProcess(Throwing::new, Quiet::new);
  }
}
