package dev.schedlab.engine.plugin.testplugins;

import dev.schedlab.api.hook.TickHook;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import java.util.Set;
import java.util.concurrent.Executors;

/** Packed as a zip by the tests: its H5 stage starts a thread and a thread pool. */
public final class ThreadStartingPlugin implements SchedlabPlugin {
  @Override
  public PluginDescriptor descriptor() {
    return new PluginDescriptor(
        "thread-starting",
        "1.0.0",
        "fault injection",
        Set.of(HookPoint.H5_TICK),
        Set.of(),
        ">=1.0.0 & <2.0.0");
  }

  @Override
  public void contribute(Contributions c, PluginOptions options) {
    c.hook(
        TickHook.class,
        (cpu, curr, services) -> {
          new Thread(() -> {}).start();
          Executors.newSingleThreadExecutor().shutdown();
        });
  }
}
