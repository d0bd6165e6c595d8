package dev.schedlab.engine.plugin;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.hook.BeforeDeactivateHook;
import dev.schedlab.api.hook.ExitToUserHook;
import dev.schedlab.api.hook.IdleTopHook;
import dev.schedlab.api.hook.IpiPrepareHook;
import dev.schedlab.api.hook.MetricsHook;
import dev.schedlab.api.hook.NewidleFailHook;
import dev.schedlab.api.hook.NohzIdleEnterHook;
import dev.schedlab.api.hook.NohzKickHook;
import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.hook.RunnableWakeHook;
import dev.schedlab.api.hook.TickHook;
import java.util.List;
import java.util.Map;

/**
 * Everything the engine runs with for one run: built-in providers plus what the enabled plugins
 * contributed, hooks already resolved (mainline where no plugin overrides) and guarded so a plugin that
 * throws or misbehaves is reported by name and ejected or stopped by the {@link PluginSupervisor}.
 * Built by the plugin host, fresh for every run.
 *
 * @param classes scheduling classes, highest rank first
 * @param preemptionModels models by name
 * @param idlePolicies idle policies by name
 * @param pickOverride H1
 * @param beforeDeactivate H2
 * @param tick H5 (null = the engine's mainline mm_cid stage)
 * @param nohzEnterIdle H6
 * @param nohzKick H7
 * @param newidleFail H8
 * @param idleTop H9
 * @param exitToUser H11
 * @param ipiPrepare H13
 * @param runnableWake H14
 * @param metrics H15 observers
 * @param plugins the enabled plugins, in load order
 * @param supervisor the run-time supervision of the enabled plugins (one run only)
 */
public record Extensions(
    List<SchedulingClass> classes,
    Map<String, PreemptionModel> preemptionModels,
    Map<String, IdlePolicy> idlePolicies,
    PickOverrideHook pickOverride,
    BeforeDeactivateHook beforeDeactivate,
    TickHook tick,
    NohzIdleEnterHook nohzEnterIdle,
    NohzKickHook nohzKick,
    NewidleFailHook newidleFail,
    IdleTopHook idleTop,
    ExitToUserHook exitToUser,
    IpiPrepareHook ipiPrepare,
    RunnableWakeHook runnableWake,
    List<MetricsHook> metrics,
    List<LoadedPlugin> plugins,
    PluginSupervisor supervisor) {
  /** Extensions assembled by hand (tests, embedding): no plugin is supervised. */
  public Extensions(List<SchedulingClass> classes, Map<String, PreemptionModel> preemptionModels,
      Map<String, IdlePolicy> idlePolicies, PickOverrideHook pickOverride,
      BeforeDeactivateHook beforeDeactivate, TickHook tick, NohzIdleEnterHook nohzEnterIdle,
      NohzKickHook nohzKick, NewidleFailHook newidleFail, IdleTopHook idleTop,
      ExitToUserHook exitToUser, IpiPrepareHook ipiPrepare, RunnableWakeHook runnableWake,
      List<MetricsHook> metrics, List<LoadedPlugin> plugins) {
    this(classes, preemptionModels, idlePolicies, pickOverride, beforeDeactivate, tick,
        nohzEnterIdle, nohzKick, newidleFail, idleTop, exitToUser, ipiPrepare, runnableWake,
        metrics, plugins, PluginSupervisor.none());
  }
}
