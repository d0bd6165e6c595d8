package dev.schedlab.engine.plugin;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.hook.BeforeDeactivateHook;
import dev.schedlab.api.hook.ExitToUserHook;
import dev.schedlab.api.hook.IdleTopHook;
import dev.schedlab.api.hook.IpiPrepareHook;
import dev.schedlab.api.hook.LoadBalanceHook;
import dev.schedlab.api.hook.MetricsHook;
import dev.schedlab.api.hook.NewidleFailHook;
import dev.schedlab.api.hook.NohzIdleEnterHook;
import dev.schedlab.api.hook.NohzKickHook;
import dev.schedlab.api.hook.PeltHook;
import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.hook.RunnableWakeHook;
import dev.schedlab.api.hook.SelectTaskRqHook;
import dev.schedlab.api.hook.TickHook;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Everything the engine runs with for one run: built-in providers plus what the enabled plugins
 * contributed, hooks already resolved (mainline where no plugin overrides) and guarded so a plugin
 * that throws or misbehaves is reported by name and ejected or stopped by the {@link
 * PluginSupervisor}. Built by the plugin host, fresh for every run.
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
 * @param selectTaskRq H16
 * @param loadBalance H17
 * @param pelt H18
 * @param supervisor the run-time supervision of the enabled plugins (one run only)
 */
public record Extensions(
    List<SchedulingClass> classes,
    Map<String, PreemptionModel> preemptionModels,
    Map<String, IdlePolicy> idlePolicies,
    PickOverrideHook pickOverride,
    BeforeDeactivateHook beforeDeactivate,
    @Nullable TickHook tick,
    NohzIdleEnterHook nohzEnterIdle,
    NohzKickHook nohzKick,
    NewidleFailHook newidleFail,
    IdleTopHook idleTop,
    ExitToUserHook exitToUser,
    IpiPrepareHook ipiPrepare,
    RunnableWakeHook runnableWake,
    List<MetricsHook> metrics,
    List<LoadedPlugin> plugins,
    SelectTaskRqHook selectTaskRq,
    LoadBalanceHook loadBalance,
    PeltHook pelt,
    PluginSupervisor supervisor) {

  /** Extensions with H1-H18 and no supervised plugin (tests, embedding). */
  public Extensions(
      List<SchedulingClass> classes,
      Map<String, PreemptionModel> preemptionModels,
      Map<String, IdlePolicy> idlePolicies,
      PickOverrideHook pickOverride,
      BeforeDeactivateHook beforeDeactivate,
      @Nullable TickHook tick,
      NohzIdleEnterHook nohzEnterIdle,
      NohzKickHook nohzKick,
      NewidleFailHook newidleFail,
      IdleTopHook idleTop,
      ExitToUserHook exitToUser,
      IpiPrepareHook ipiPrepare,
      RunnableWakeHook runnableWake,
      List<MetricsHook> metrics,
      List<LoadedPlugin> plugins,
      SelectTaskRqHook selectTaskRq,
      LoadBalanceHook loadBalance,
      PeltHook pelt) {
    this(
        classes,
        preemptionModels,
        idlePolicies,
        pickOverride,
        beforeDeactivate,
        tick,
        nohzEnterIdle,
        nohzKick,
        newidleFail,
        idleTop,
        exitToUser,
        ipiPrepare,
        runnableWake,
        metrics,
        plugins,
        selectTaskRq,
        loadBalance,
        pelt,
        PluginSupervisor.none());
  }

  /** Extensions with mainline H16-H18 and no supervised plugin. */
  public Extensions(
      List<SchedulingClass> classes,
      Map<String, PreemptionModel> preemptionModels,
      Map<String, IdlePolicy> idlePolicies,
      PickOverrideHook pickOverride,
      BeforeDeactivateHook beforeDeactivate,
      @Nullable TickHook tick,
      NohzIdleEnterHook nohzEnterIdle,
      NohzKickHook nohzKick,
      NewidleFailHook newidleFail,
      IdleTopHook idleTop,
      ExitToUserHook exitToUser,
      IpiPrepareHook ipiPrepare,
      RunnableWakeHook runnableWake,
      List<MetricsHook> metrics,
      List<LoadedPlugin> plugins) {
    this(
        classes,
        preemptionModels,
        idlePolicies,
        pickOverride,
        beforeDeactivate,
        tick,
        nohzEnterIdle,
        nohzKick,
        newidleFail,
        idleTop,
        exitToUser,
        ipiPrepare,
        runnableWake,
        metrics,
        plugins,
        SelectTaskRqHook.MAINLINE,
        LoadBalanceHook.MAINLINE,
        PeltHook.MAINLINE);
  }

  /** These extensions with H16-H18 replaced (for tests and the host). */
  public Extensions withFairHooks(
      SelectTaskRqHook select, LoadBalanceHook balance, PeltHook peltHook) {
    return new Extensions(
        classes,
        preemptionModels,
        idlePolicies,
        pickOverride,
        beforeDeactivate,
        tick,
        nohzEnterIdle,
        nohzKick,
        newidleFail,
        idleTop,
        exitToUser,
        ipiPrepare,
        runnableWake,
        metrics,
        plugins,
        select,
        balance,
        peltHook,
        supervisor);
  }
}
