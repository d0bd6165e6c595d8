package dev.schedlab.engine.plugin;

import dev.schedlab.api.CallFunction;
import dev.schedlab.api.Counter;
import dev.schedlab.api.DeferKind;
import dev.schedlab.api.DeferredWork;
import dev.schedlab.api.ReschedBit;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.TimerCallback;
import dev.schedlab.api.TimerHandle;
import dev.schedlab.api.hook.MmCidControl;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.TaskView;
import org.jspecify.annotations.Nullable;

/**
 * The {@link SchedServices} a plugin's code is handed: the engine's, with the arguments checked at
 * the boundary (a CPU that does not exist, a negative cost or delay that would move simulated time
 * backwards) and the plugin's callbacks guarded like its hooks. Callbacks of an ejected plugin that
 * are still pending (armed timers, queued work) do nothing when they come due.
 */
final class GuardedServices implements SchedServices {
  private final PluginSlot slot;
  private final SchedServices s;

  GuardedServices(PluginSlot slot, SchedServices s) {
    this.slot = slot;
    this.s = s;
  }

  boolean wraps(SchedServices other) {
    return s == other;
  }

  /** Whether the call may go on: false when the plugin was ejected for it (or before). */
  private boolean cpuOk(String call, int cpu) {
    if (cpu < 0 || cpu >= s.machine().nrCpus()) {
      slot.fault(
          call,
          "invariant violated: CPU "
              + cpu
              + " does not exist (0.."
              + (s.machine().nrCpus() - 1)
              + ")",
          null);
    }
    return !slot.ejected();
  }

  private boolean notBackwards(String call, String what, long ns) {
    if (ns < 0) {
      slot.fault(
          call,
          "invariant violated: simulated time going backwards: " + what + " " + ns + " ns",
          null);
    }
    return !slot.ejected();
  }

  @Override
  public long now() {
    return s.now();
  }

  @Override
  public MachineView machine() {
    return s.machine();
  }

  @Override
  public void resched(int cpu, ReschedReason reason) {
    if (cpuOk("services.resched", cpu)) {
      s.resched(cpu, reason);
    }
  }

  @Override
  public void setResched(int cpu, ReschedBit bit) {
    if (cpuOk("services.setResched", cpu)) {
      s.setResched(cpu, bit);
    }
  }

  @Override
  public void callFunction(int target, long costNs, CallFunction fn) {
    if (cpuOk("services.callFunction", target)
        && notBackwards("services.callFunction", "cost", costNs)) {
      s.callFunction(
          target,
          costNs,
          cpu -> {
            if (!slot.ejected()) {
              slot.enter("callFunction callback");
              try {
                fn.run(cpu);
              } catch (RuntimeException | Error e) {
                slot.threw("callFunction callback", e);
              } finally {
                slot.exit();
              }
            }
          });
    }
  }

  @Override
  public void defer(
      DeferKind kind, TaskView owner, int cpu, long costNs, long delayNs, DeferredWork work) {
    if (cpuOk("services.defer", cpu)
        && notBackwards("services.defer", "cost", costNs)
        && notBackwards("services.defer", "delay", delayNs)) {
      s.defer(
          kind,
          owner,
          cpu,
          costNs,
          delayNs,
          c -> {
            if (!slot.ejected()) {
              slot.enter("deferred work " + kind);
              try {
                work.run(c);
              } catch (RuntimeException | Error e) {
                slot.threw("deferred work " + kind, e);
              } finally {
                slot.exit();
              }
            }
          });
    }
  }

  @Override
  public long param(String key) {
    return s.param(key);
  }

  @Override
  public Counter counter(String name) {
    return s.counter(name);
  }

  @Override
  public TimerHandle newTimer(int cpu, TimerCallback callback) {
    if (cpu < 0 || cpu >= s.machine().nrCpus()) {
      cpuOk("services.newTimer", cpu);
      cpu = 0; // ejected (or failing): a timer that is never armed by live plugin code
    }
    TimerHandle h =
        s.newTimer(
            cpu,
            (c, now) -> {
              if (!slot.ejected()) {
                slot.enter("timer callback");
                try {
                  callback.expired(c, now);
                } catch (RuntimeException | Error e) {
                  slot.threw("timer callback", e);
                } finally {
                  slot.exit();
                }
              }
            });
    return new TimerHandle() {
      @Override
      public void arm(long expiresNs) {
        if (notBackwards("timer.arm", "expiry", expiresNs)) {
          h.arm(expiresNs);
        }
      }

      @Override
      public void cancel() {
        h.cancel();
      }

      @Override
      public boolean armed() {
        return h.armed();
      }
    };
  }

  @Override
  public void completeDelayedDequeue(TaskView p) {
    s.completeDelayedDequeue(p);
  }

  @Override
  public long jiffies() {
    return s.jiffies();
  }

  @Override
  public MmCidControl mmCid() {
    return s.mmCid();
  }

  @Override
  public void addPathCost(long ns) {
    if (notBackwards("services.addPathCost", "path cost", ns)) {
      s.addPathCost(ns);
    }
  }

  @Override
  public void migrateQueued(TaskView p, int dstCpu) {
    if (cpuOk("services.migrateQueued", dstCpu)) {
      s.migrateQueued(p, dstCpu);
    }
  }

  @Override
  public void changeNrRunning(int cpu, int delta) {
    if (cpuOk("services.changeNrRunning", cpu)) {
      s.changeNrRunning(cpu, delta);
    }
  }

  @Override
  public <H> @Nullable H hook(Class<H> type) {
    return s.hook(type);
  }

  @Override
  public void setLlcHasIdleCores(int cpu, boolean value) {
    if (cpuOk("services.setLlcHasIdleCores", cpu)) {
      s.setLlcHasIdleCores(cpu, value);
    }
  }
}
