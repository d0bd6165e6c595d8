package dev.schedlab.testkit;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.Set;

/**
 * A plugin as it is, except that every hook it contributes counts its calls (a proxy around the
 * plugin's own implementation, so behaviour and guards are unchanged).
 */
final class CountingPlugin implements SchedlabPlugin {
  private final SchedlabPlugin plugin;
  private final long[] calls;

  CountingPlugin(SchedlabPlugin plugin, long[] calls) {
    this.plugin = plugin;
    this.calls = calls;
  }

  @Override
  public PluginDescriptor descriptor() {
    return plugin.descriptor();
  }

  @Override
  public Set<String> optionKeys() {
    return plugin.optionKeys();
  }

  @Override
  public void contribute(Contributions c, PluginOptions options) {
    plugin.contribute(
        new Contributions() {
          @Override
          public <H> void hook(Class<H> type, H implementation) {
            c.hook(type, counted(type, implementation));
          }

          @Override
          public void addSchedulingClass(SchedulingClass schedulingClass) {
            c.addSchedulingClass(schedulingClass);
          }

          @Override
          public void addPreemptionModel(PreemptionModel model) {
            c.addPreemptionModel(model);
          }

          @Override
          public void addIdlePolicy(IdlePolicy policy) {
            c.addIdlePolicy(policy);
          }
        },
        options);
  }

  @SuppressWarnings("EnumOrdinal") // hook calls counted in an array slot per HookPoint
  private <H> H counted(Class<H> type, H impl) {
    HookPoint point =
        Arrays.stream(HookPoint.values()).filter(p -> p.type() == type).findFirst().orElse(null);
    if (point == null || impl == null || !type.isInterface()) {
      return impl; // the host rejects it with its own message
    }
    int slot = point.ordinal();
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == Object.class) {
                return method.invoke(impl, args);
              }
              calls[slot]++;
              try {
                return method.invoke(impl, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            }));
  }
}
