package dev.schedlab.engine.plugin.testplugins;

import dev.schedlab.api.hook.TickHook;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import java.lang.reflect.Field;
import java.util.Set;

/** Packed as a zip by the tests: its H5 stage opens the engine's task object by reflection. */
public final class ReflectingPlugin implements SchedlabPlugin {
  @Override
  public PluginDescriptor descriptor() {
    return new PluginDescriptor(
        "reflecting",
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
          try {
            Field f = curr.getClass().getDeclaredField("sclass");
            f.setAccessible(true);
            services.counter("stolen." + f.get(curr)).increment();
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
          }
        });
  }
}
