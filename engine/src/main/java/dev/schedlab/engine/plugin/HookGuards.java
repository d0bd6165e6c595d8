package dev.schedlab.engine.plugin;

import dev.schedlab.api.GroupStats;
import dev.schedlab.api.IpiDelivery;
import dev.schedlab.api.SchedMode;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.hook.BeforeDeactivateHook;
import dev.schedlab.api.hook.ExitToUserHook;
import dev.schedlab.api.hook.IdleTopHook;
import dev.schedlab.api.hook.IpiPrepareHook;
import dev.schedlab.api.hook.LoadBalanceHook;
import dev.schedlab.api.hook.MetricsHook;
import dev.schedlab.api.hook.NewidleFailHook;
import dev.schedlab.api.hook.NohzControl;
import dev.schedlab.api.hook.NohzIdleEnterHook;
import dev.schedlab.api.hook.NohzKickHook;
import dev.schedlab.api.hook.PeltHook;
import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.hook.RunnableWakeHook;
import dev.schedlab.api.hook.SelectTaskRqHook;
import dev.schedlab.api.hook.TickHook;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.SchedDomainView;
import dev.schedlab.api.view.TaskView;

/**
 * Hand-written guards for the hook interfaces (no reflection proxies: hooks run on the simulation
 * hot path). Each reports a throw as a {@link PluginFailure} labelled {@code "H<n> <method>"}.
 */
final class HookGuards {
  private HookGuards() {}

  /** {@code impl} of {@code point} guarded for {@code pluginId}. */
  static Object guard(HookPoint point, String pluginId, Object impl) {
    return switch (point) {
      case H1_PICK_OVERRIDE -> new PickOverride(pluginId, (PickOverrideHook) impl);
      case H2_BEFORE_DEACTIVATE -> new BeforeDeactivate(pluginId, (BeforeDeactivateHook) impl);
      case H5_TICK -> new Tick(pluginId, (TickHook) impl);
      case H6_NOHZ_ENTER_IDLE -> new NohzEnterIdle(pluginId, (NohzIdleEnterHook) impl);
      case H7_NOHZ_KICK -> new NohzKick(pluginId, (NohzKickHook) impl);
      case H8_NEWIDLE_FAIL -> new NewidleFail(pluginId, (NewidleFailHook) impl);
      case H9_IDLE_TOP -> new IdleTop(pluginId, (IdleTopHook) impl);
      case H11_EXIT_TO_USER -> new ExitToUser(pluginId, (ExitToUserHook) impl);
      case H13_IPI_PREPARE -> new IpiPrepare(pluginId, (IpiPrepareHook) impl);
      case H14_RUNNABLE_WAKE -> new RunnableWake(pluginId, (RunnableWakeHook) impl);
      case H15_METRICS -> new Metrics(pluginId, (MetricsHook) impl);
      case H16_SELECT_TASK_RQ -> new SelectTaskRq(pluginId, (SelectTaskRqHook) impl);
      case H17_LOAD_BALANCE -> new LoadBalance(pluginId, (LoadBalanceHook) impl);
      case H18_PELT -> new Pelt(pluginId, (PeltHook) impl);
      default -> throw new IllegalArgumentException(point + " is not an overridable hook");
    };
  }

  record PickOverride(String id, PickOverrideHook d) implements PickOverrideHook {
    @Override
    public TaskView pickOverride(CpuView cpu, SchedMode mode, TaskView prev, RqView rq) {
      try {
        return d.pickOverride(cpu, mode, prev, rq);
      } catch (RuntimeException | Error e) {
        throw Guard.failure(id, "H1 pickOverride", e);
      }
    }
  }

  record BeforeDeactivate(String id, BeforeDeactivateHook d) implements BeforeDeactivateHook {
    @Override
    public long spinLimitNs(CpuView cpu, TaskView prev, RqView rq) {
      try {
        return d.spinLimitNs(cpu, prev, rq);
      } catch (RuntimeException | Error e) {
        throw Guard.failure(id, "H2 spinLimitNs", e);
      }
    }
  }

  record Tick(String id, TickHook d) implements TickHook {
    @Override
    public void onTick(CpuView cpu, TaskView curr, SchedServices services) {
      try {
        d.onTick(cpu, curr, services);
      } catch (RuntimeException | Error e) {
        throw Guard.failure(id, "H5 onTick", e);
      }
    }
  }

  record NohzEnterIdle(String id, NohzIdleEnterHook d) implements NohzIdleEnterHook {
    @Override
    public void enterIdle(int cpu, NohzControl nohz) {
      try {
        d.enterIdle(cpu, nohz);
      } catch (RuntimeException | Error e) {
        throw Guard.failure(id, "H6 enterIdle", e);
      }
    }
  }

  record NohzKick(String id, NohzKickHook d) implements NohzKickHook {
    @Override
    public int kickFlags(int cpu, NohzControl nohz, int flags) {
      try {
        return d.kickFlags(cpu, nohz, flags);
      } catch (RuntimeException | Error e) {
        throw Guard.failure(id, "H7 kickFlags", e);
      }
    }
  }

  record NewidleFail(String id, NewidleFailHook d) implements NewidleFailHook {
    @Override
    public void onNewidleFail(int cpu, NohzControl nohz, long jiffies, long migrationCostNs) {
      try {
        d.onNewidleFail(cpu, nohz, jiffies, migrationCostNs);
      } catch (RuntimeException | Error e) {
        throw Guard.failure(id, "H8 onNewidleFail", e);
      }
    }
  }

  record IdleTop(String id, IdleTopHook d) implements IdleTopHook {
    @Override
    public void onDoIdleTop(int cpu, NohzControl nohz) {
      try {
        d.onDoIdleTop(cpu, nohz);
      } catch (RuntimeException | Error e) {
        throw Guard.failure(id, "H9 onDoIdleTop", e);
      }
    }
  }

  record ExitToUser(String id, ExitToUserHook d) implements ExitToUserHook {
    @Override
    public void onExitToUser(CpuView cpu, TaskView task, SchedServices services) {
      try {
        d.onExitToUser(cpu, task, services);
      } catch (RuntimeException | Error e) {
        throw Guard.failure(id, "H11 onExitToUser", e);
      }
    }
  }

  record IpiPrepare(String id, IpiPrepareHook d) implements IpiPrepareHook {
    @Override
    public IpiDelivery prepare(CpuView target) {
      try {
        return d.prepare(target);
      } catch (RuntimeException | Error e) {
        throw Guard.failure(id, "H13 prepare", e);
      }
    }
  }

  record RunnableWake(String id, RunnableWakeHook d) implements RunnableWakeHook {
    @Override
    public void onRunnableWake(CpuView cpu, TaskView task, SchedServices services) {
      try {
        d.onRunnableWake(cpu, task, services);
      } catch (RuntimeException | Error e) {
        throw Guard.failure(id, "H14 onRunnableWake", e);
      }
    }
  }

  record Metrics(String id, MetricsHook d) implements MetricsHook {
    @Override
    public void on(String event, int cpu, int pid, long timeNs) {
      try {
        d.on(event, cpu, pid, timeNs);
      } catch (RuntimeException | Error e) {
        throw Guard.failure(id, "H15 on", e);
      }
    }
  }

  record SelectTaskRq(String id, SelectTaskRqHook d) implements SelectTaskRqHook {
    @Override
    public int selectTaskRq(TaskView p, int prevCpu, int wakerCpu, int wakeFlags, int selected) {
      try {
        return d.selectTaskRq(p, prevCpu, wakerCpu, wakeFlags, selected);
      } catch (RuntimeException | Error e) {
        throw Guard.failure(id, "H16 selectTaskRq", e);
      }
    }
  }

  record LoadBalance(String id, LoadBalanceHook d) implements LoadBalanceHook {
    @Override
    public long imbalance(CpuView dst, SchedDomainView sd, int idle, GroupStats local,
        GroupStats busiest, int migrationType, long imbalance) {
      try {
        return d.imbalance(dst, sd, idle, local, busiest, migrationType, imbalance);
      } catch (RuntimeException | Error e) {
        throw Guard.failure(id, "H17 imbalance", e);
      }
    }
  }

  record Pelt(String id, PeltHook d) implements PeltHook {
    @Override
    public long utilEst(TaskView p, long ewma, long dequeued, long runnable, long capacity,
        long mainline) {
      try {
        return d.utilEst(p, ewma, dequeued, runnable, capacity, mainline);
      } catch (RuntimeException | Error e) {
        throw Guard.failure(id, "H18 utilEst", e);
      }
    }
  }
}
