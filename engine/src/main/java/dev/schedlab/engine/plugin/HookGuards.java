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
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Hand-written guards for the hook interfaces (no reflection proxies: hooks run on the simulation
 * hot path). Each call of an active plugin is bracketed for the hook budget; a throw is reported to
 * the plugin's {@link PluginSlot} as {@code "H<n> <method>"}; once the plugin is ejected the guard
 * answers as the hook's {@code MAINLINE} does.
 */
final class HookGuards {
  private HookGuards() {}

  /** {@code impl} of {@code point} guarded for {@code slot}'s plugin. */
  static Object guard(HookPoint point, PluginSlot slot, Object impl) {
    return slot.track(
        switch (point) {
          case H1_PICK_OVERRIDE -> new PickOverride(slot, (PickOverrideHook) impl);
          case H2_BEFORE_DEACTIVATE -> new BeforeDeactivate(slot, (BeforeDeactivateHook) impl);
          case H5_TICK -> new Tick(slot, (TickHook) impl);
          case H6_NOHZ_ENTER_IDLE -> new NohzEnterIdle(slot, (NohzIdleEnterHook) impl);
          case H7_NOHZ_KICK -> new NohzKick(slot, (NohzKickHook) impl);
          case H8_NEWIDLE_FAIL -> new NewidleFail(slot, (NewidleFailHook) impl);
          case H9_IDLE_TOP -> new IdleTop(slot, (IdleTopHook) impl);
          case H11_EXIT_TO_USER -> new ExitToUser(slot, (ExitToUserHook) impl);
          case H13_IPI_PREPARE -> new IpiPrepare(slot, (IpiPrepareHook) impl);
          case H14_RUNNABLE_WAKE -> new RunnableWake(slot, (RunnableWakeHook) impl);
          case H15_METRICS -> new Metrics(slot, (MetricsHook) impl);
          case H16_SELECT_TASK_RQ -> new SelectTaskRq(slot, (SelectTaskRqHook) impl);
          case H17_LOAD_BALANCE -> new LoadBalance(slot, (LoadBalanceHook) impl);
          case H18_PELT -> new Pelt(slot, (PeltHook) impl);
          default -> throw new IllegalArgumentException(point + " is not an overridable hook");
        });
  }

  /** A guard of one hook implementation. */
  abstract static class Base<H> implements PluginSlot.Releasable {
    final PluginSlot slot;
    H d;

    Base(PluginSlot slot, H d) {
      this.slot = slot;
      this.d = d;
    }

    // Dropped only once the slot is ejected; every call checks slot.ejected() before using d.
    @SuppressWarnings("NullAway")
    @Override
    public void release() {
      d = null;
    }
  }

  static final class PickOverride extends Base<PickOverrideHook> implements PickOverrideHook {
    static final String HOOK = "H1 pickOverride";

    PickOverride(PluginSlot slot, PickOverrideHook d) {
      super(slot, d);
    }

    @Override
    public @Nullable TaskView pickOverride(CpuView cpu, SchedMode mode, TaskView prev, RqView rq) {
      if (!slot.ejected()) {
        slot.enter(HOOK);
        try {
          return d.pickOverride(cpu, mode, prev, rq);
        } catch (RuntimeException | Error e) {
          slot.threw(HOOK, e);
        } finally {
          slot.exit();
        }
      }
      return MAINLINE.pickOverride(cpu, mode, prev, rq);
    }
  }

  static final class BeforeDeactivate extends Base<BeforeDeactivateHook>
      implements BeforeDeactivateHook {
    static final String HOOK = "H2 spinLimitNs";

    BeforeDeactivate(PluginSlot slot, BeforeDeactivateHook d) {
      super(slot, d);
    }

    @Override
    public long spinLimitNs(CpuView cpu, TaskView prev, RqView rq) {
      if (!slot.ejected()) {
        long limit = 0;
        slot.enter(HOOK);
        try {
          limit = d.spinLimitNs(cpu, prev, rq);
        } catch (RuntimeException | Error e) {
          slot.threw(HOOK, e);
        } finally {
          slot.exit();
        }
        if (limit > Long.MAX_VALUE - Math.max(0, slot.now())) {
          slot.fault(
              HOOK,
              "invariant violated: a spin limit of "
                  + limit
                  + " ns ends past the largest simulated time",
              null);
        }
        if (!slot.ejected()) {
          return limit;
        }
      }
      return MAINLINE.spinLimitNs(cpu, prev, rq);
    }
  }

  static final class Tick extends Base<TickHook> implements TickHook {
    static final String HOOK = "H5 onTick";

    Tick(PluginSlot slot, TickHook d) {
      super(slot, d);
    }

    @Override
    public void onTick(CpuView cpu, TaskView curr, SchedServices services) {
      if (!slot.ejected()) {
        slot.enter(HOOK);
        try {
          d.onTick(cpu, curr, slot.services(services));
          return;
        } catch (RuntimeException | Error e) {
          slot.threw(HOOK, e);
        } finally {
          slot.exit();
        }
      }
      Objects.requireNonNull(slot.supervisor().engine()).mainlineTick(cpu, curr);
    }
  }

  static final class NohzEnterIdle extends Base<NohzIdleEnterHook> implements NohzIdleEnterHook {
    static final String HOOK = "H6 enterIdle";

    NohzEnterIdle(PluginSlot slot, NohzIdleEnterHook d) {
      super(slot, d);
    }

    @Override
    public void enterIdle(int cpu, NohzControl nohz) {
      if (!slot.ejected()) {
        slot.enter(HOOK);
        try {
          d.enterIdle(cpu, nohz);
          return;
        } catch (RuntimeException | Error e) {
          slot.threw(HOOK, e);
        } finally {
          slot.exit();
        }
      }
      MAINLINE.enterIdle(cpu, nohz);
    }
  }

  static final class NohzKick extends Base<NohzKickHook> implements NohzKickHook {
    static final String HOOK = "H7 kickFlags";

    NohzKick(PluginSlot slot, NohzKickHook d) {
      super(slot, d);
    }

    @Override
    public int kickFlags(int cpu, NohzControl nohz, int flags) {
      if (!slot.ejected()) {
        slot.enter(HOOK);
        try {
          return d.kickFlags(cpu, nohz, flags);
        } catch (RuntimeException | Error e) {
          slot.threw(HOOK, e);
        } finally {
          slot.exit();
        }
      }
      return MAINLINE.kickFlags(cpu, nohz, flags);
    }
  }

  static final class NewidleFail extends Base<NewidleFailHook> implements NewidleFailHook {
    static final String HOOK = "H8 onNewidleFail";

    NewidleFail(PluginSlot slot, NewidleFailHook d) {
      super(slot, d);
    }

    @Override
    public void onNewidleFail(int cpu, NohzControl nohz, long jiffies, long migrationCostNs) {
      if (!slot.ejected()) {
        slot.enter(HOOK);
        try {
          d.onNewidleFail(cpu, nohz, jiffies, migrationCostNs);
          return;
        } catch (RuntimeException | Error e) {
          slot.threw(HOOK, e);
        } finally {
          slot.exit();
        }
      }
      MAINLINE.onNewidleFail(cpu, nohz, jiffies, migrationCostNs);
    }
  }

  static final class IdleTop extends Base<IdleTopHook> implements IdleTopHook {
    static final String HOOK = "H9 onDoIdleTop";

    IdleTop(PluginSlot slot, IdleTopHook d) {
      super(slot, d);
    }

    @Override
    public void onDoIdleTop(int cpu, NohzControl nohz) {
      if (!slot.ejected()) {
        slot.enter(HOOK);
        try {
          d.onDoIdleTop(cpu, nohz);
          return;
        } catch (RuntimeException | Error e) {
          slot.threw(HOOK, e);
        } finally {
          slot.exit();
        }
      }
      MAINLINE.onDoIdleTop(cpu, nohz);
    }
  }

  static final class ExitToUser extends Base<ExitToUserHook> implements ExitToUserHook {
    static final String HOOK = "H11 onExitToUser";

    ExitToUser(PluginSlot slot, ExitToUserHook d) {
      super(slot, d);
    }

    @Override
    public void onExitToUser(CpuView cpu, TaskView task, SchedServices services) {
      if (!slot.ejected()) {
        slot.enter(HOOK);
        try {
          d.onExitToUser(cpu, task, slot.services(services));
          return;
        } catch (RuntimeException | Error e) {
          slot.threw(HOOK, e);
        } finally {
          slot.exit();
        }
      }
      MAINLINE.onExitToUser(cpu, task, services);
    }
  }

  static final class IpiPrepare extends Base<IpiPrepareHook> implements IpiPrepareHook {
    static final String HOOK = "H13 prepare";

    IpiPrepare(PluginSlot slot, IpiPrepareHook d) {
      super(slot, d);
    }

    @Override
    public IpiDelivery prepare(CpuView target) {
      if (!slot.ejected()) {
        IpiDelivery r = null;
        slot.enter(HOOK);
        try {
          r = d.prepare(target);
        } catch (RuntimeException | Error e) {
          slot.threw(HOOK, e);
        } finally {
          slot.exit();
        }
        if (r == null) {
          slot.fault(HOOK, "invariant violated: prepare() returned no IPI delivery", null);
        }
        if (!slot.ejected()) {
          return Objects.requireNonNull(r); // null faulted above, so the slot is ejected
        }
      }
      return MAINLINE.prepare(target);
    }
  }

  static final class RunnableWake extends Base<RunnableWakeHook> implements RunnableWakeHook {
    static final String HOOK = "H14 onRunnableWake";

    RunnableWake(PluginSlot slot, RunnableWakeHook d) {
      super(slot, d);
    }

    @Override
    public void onRunnableWake(CpuView cpu, TaskView task, SchedServices services) {
      if (!slot.ejected()) {
        slot.enter(HOOK);
        try {
          d.onRunnableWake(cpu, task, slot.services(services));
          return;
        } catch (RuntimeException | Error e) {
          slot.threw(HOOK, e);
        } finally {
          slot.exit();
        }
      }
      MAINLINE.onRunnableWake(cpu, task, services);
    }
  }

  /** H15 observers have no mainline: an ejected one is no longer told anything. */
  static final class Metrics extends Base<MetricsHook> implements MetricsHook {
    static final String HOOK = "H15 on";

    Metrics(PluginSlot slot, MetricsHook d) {
      super(slot, d);
    }

    @Override
    public void on(String event, int cpu, int pid, long timeNs) {
      if (!slot.ejected()) {
        slot.enter(HOOK);
        try {
          d.on(event, cpu, pid, timeNs);
        } catch (RuntimeException | Error e) {
          slot.threw(HOOK, e);
        } finally {
          slot.exit();
        }
      }
    }
  }

  /** H16: the CPU chosen must exist and be in the task's affinity mask. */
  static final class SelectTaskRq extends Base<SelectTaskRqHook> implements SelectTaskRqHook {
    static final String HOOK = "H16 selectTaskRq";

    SelectTaskRq(PluginSlot slot, SelectTaskRqHook d) {
      super(slot, d);
    }

    @Override
    public int selectTaskRq(TaskView p, int prevCpu, int wakerCpu, int wakeFlags, int selected) {
      if (!slot.ejected()) {
        int cpu = selected;
        slot.enter(HOOK);
        try {
          cpu = d.selectTaskRq(p, prevCpu, wakerCpu, wakeFlags, selected);
        } catch (RuntimeException | Error e) {
          slot.threw(HOOK, e);
        } finally {
          slot.exit();
        }
        if (!slot.ejected()
            && (cpu < 0 || cpu >= slot.nrCpus() || (p != null && !p.allowedOn(cpu)))) {
          slot.fault(
              HOOK,
              "invariant violated: chose cpu "
                  + cpu
                  + " for "
                  + p
                  + ", which does not exist or is outside its affinity mask",
              null);
        }
        if (!slot.ejected()) {
          return cpu;
        }
      }
      return MAINLINE.selectTaskRq(p, prevCpu, wakerCpu, wakeFlags, selected);
    }
  }

  static final class LoadBalance extends Base<LoadBalanceHook> implements LoadBalanceHook {
    static final String HOOK = "H17 imbalance";

    LoadBalance(PluginSlot slot, LoadBalanceHook d) {
      super(slot, d);
    }

    @Override
    public long imbalance(
        CpuView dst,
        SchedDomainView sd,
        int idle,
        GroupStats local,
        @Nullable GroupStats busiest,
        int migrationType,
        long imbalance) {
      if (!slot.ejected()) {
        slot.enter(HOOK);
        try {
          return d.imbalance(dst, sd, idle, local, busiest, migrationType, imbalance);
        } catch (RuntimeException | Error e) {
          slot.threw(HOOK, e);
        } finally {
          slot.exit();
        }
      }
      return MAINLINE.imbalance(dst, sd, idle, local, busiest, migrationType, imbalance);
    }
  }

  static final class Pelt extends Base<PeltHook> implements PeltHook {
    static final String HOOK = "H18 utilEst";

    Pelt(PluginSlot slot, PeltHook d) {
      super(slot, d);
    }

    @Override
    public long utilEst(
        TaskView p, long ewma, long dequeued, long runnable, long capacity, long mainline) {
      if (!slot.ejected()) {
        slot.enter(HOOK);
        try {
          return d.utilEst(p, ewma, dequeued, runnable, capacity, mainline);
        } catch (RuntimeException | Error e) {
          slot.threw(HOOK, e);
        } finally {
          slot.exit();
        }
      }
      return MAINLINE.utilEst(p, ewma, dequeued, runnable, capacity, mainline);
    }
  }
}
