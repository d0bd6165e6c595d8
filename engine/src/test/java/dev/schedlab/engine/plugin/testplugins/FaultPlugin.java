package dev.schedlab.engine.plugin.testplugins;

import dev.schedlab.api.DeferKind;
import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.Policy;
import dev.schedlab.api.PreemptPoint;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.ReschedBit;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.hook.BeforeDeactivateHook;
import dev.schedlab.api.hook.ExitToUserHook;
import dev.schedlab.api.hook.IdleTopHook;
import dev.schedlab.api.hook.IpiPrepareHook;
import dev.schedlab.api.hook.LoadBalanceHook;
import dev.schedlab.api.hook.NewidleFailHook;
import dev.schedlab.api.hook.NohzIdleEnterHook;
import dev.schedlab.api.hook.NohzKickHook;
import dev.schedlab.api.hook.PeltHook;
import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.hook.RunnableWakeHook;
import dev.schedlab.api.hook.SelectTaskRqHook;
import dev.schedlab.api.hook.TickHook;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Fault injection: one plugin per {@link Fault}, id {@code fault-<name>}. Each adds a working
 * SCHED_EXT class ({@code ext}: per-CPU FIFO queues) or overrides one hook, and misbehaves in one
 * way. Faults the engine can only catch before a plugin runs (System.exit, threads, reflection with
 * setAccessible) are separate classes, so that this one passes the load-time check.
 */
public final class FaultPlugin implements SchedlabPlugin {
  /** What goes wrong. */
  public enum Fault {
    THROW_H1(HookPoint.H1_PICK_OVERRIDE),
    THROW_H2(HookPoint.H2_BEFORE_DEACTIVATE),
    THROW_H5(HookPoint.H5_TICK),
    THROW_H6(HookPoint.H6_NOHZ_ENTER_IDLE),
    THROW_H7(HookPoint.H7_NOHZ_KICK),
    THROW_H8(HookPoint.H8_NEWIDLE_FAIL),
    THROW_H9(HookPoint.H9_IDLE_TOP),
    THROW_H11(HookPoint.H11_EXIT_TO_USER, HookPoint.H5_TICK),
    THROW_H13(HookPoint.H13_IPI_PREPARE),
    THROW_H14(HookPoint.H14_RUNNABLE_WAKE),
    THROW_H16(HookPoint.H16_SELECT_TASK_RQ),
    THROW_H17(HookPoint.H17_LOAD_BALANCE),
    THROW_H18(HookPoint.H18_PELT),
    /** H16 places wakeups on a CPU outside the task's mask. */
    H16_IGNORES_AFFINITY(HookPoint.H16_SELECT_TASK_RQ),
    /** Throws in the named callback of its scheduling class. */
    THROW_CLASS_INIT,
    THROW_CLASS_ENQUEUE,
    THROW_CLASS_DEQUEUE,
    THROW_CLASS_PICKNEXT,
    THROW_CLASS_PUTPREV,
    THROW_CLASS_SETNEXT,
    THROW_CLASS_TICK,
    THROW_CLASS_SELECTCPU,
    THROW_CLASS_UPDATECURR,
    THROW_CLASS_WAKEUPPREEMPT,
    /** Its preemption model (H3/H4) {@code fault-model} throws in chooseBit. */
    THROW_MODEL,
    /** Its idle policy {@code fault-governor} throws in select. */
    THROW_IDLE_POLICY,
    /** A timer armed from H5 throws when it fires. */
    THROW_TIMER_CALLBACK(HookPoint.H5_TICK),
    /** Its class queues tasks and never picks one. */
    NEVER_PICKS,
    /** Its class picks a task queued on another CPU. */
    PICKS_OTHER_CPU,
    /** Its class wakes tasks on a CPU outside their mask. */
    IGNORES_AFFINITY,
    /** Its class forgets every third task it is given. */
    LOSES_TASKS,
    /** H5 defers work into the past. */
    TIME_BACKWARDS(HookPoint.H5_TICK),
    /** H5 never returns. */
    LOOPS_FOREVER(HookPoint.H5_TICK),
    /** H5 allocates until the heap is full. */
    ALLOCATES(HookPoint.H5_TICK),
    /** H5 recurses without end. */
    RECURSES(HookPoint.H5_TICK),
    /** H5 reads the running task's class through reflection (without setAccessible). */
    READS_INTERNALS(HookPoint.H5_TICK);

    final Set<HookPoint> hooks;

    Fault(HookPoint... hooks) {
      this.hooks = hooks.length == 0 ? Set.of() : EnumSet.of(hooks[0], hooks);
    }

    /** The plugin's id. */
    public String id() {
      return "fault-" + name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether the fault lives in the plugin's scheduling class (tasks use policy ext). */
    public boolean inClass() {
      return hooks.isEmpty() && this != THROW_MODEL && this != THROW_IDLE_POLICY;
    }

    /** A supplier for {@code PluginHost.inProcess}. */
    public Supplier<SchedlabPlugin> plugin() {
      return () -> new FaultPlugin(this);
    }
  }

  /**
   * Lets {@link Fault#LOOPS_FOREVER}'s loop end (in-process tests only: the budget has already
   * given up on it; this just frees the thread it holds).
   */
  public static final java.util.concurrent.atomic.AtomicBoolean RELEASE_LOOPS =
      new java.util.concurrent.atomic.AtomicBoolean();

  private final Fault fault;

  public FaultPlugin(Fault fault) {
    this.fault = fault;
  }

  @Override
  public PluginDescriptor descriptor() {
    return new PluginDescriptor(
        fault.id(), "1.0.0", "fault injection", fault.hooks, Set.of(), ">=1.0.0 & <2.0.0");
  }

  private static IllegalStateException boom(String where) {
    return new IllegalStateException("injected fault in " + where);
  }

  @Override
  public void contribute(Contributions c, PluginOptions options) {
    switch (fault) {
      case THROW_H1 ->
          c.hook(
              PickOverrideHook.class,
              (cpu, mode, prev, rq) -> {
                throw boom("H1");
              });
      case THROW_H2 ->
          c.hook(
              BeforeDeactivateHook.class,
              (cpu, prev, rq) -> {
                throw boom("H2");
              });
      case THROW_H5 ->
          c.hook(
              TickHook.class,
              (cpu, curr, s) -> {
                throw boom("H5");
              });
      case THROW_H6 ->
          c.hook(
              NohzIdleEnterHook.class,
              (cpu, nohz) -> {
                throw boom("H6");
              });
      case THROW_H7 ->
          c.hook(
              NohzKickHook.class,
              (cpu, nohz, flags) -> {
                throw boom("H7");
              });
      case THROW_H8 ->
          c.hook(
              NewidleFailHook.class,
              (cpu, nohz, jiffies, cost) -> {
                throw boom("H8");
              });
      case THROW_H9 ->
          c.hook(
              IdleTopHook.class,
              (cpu, nohz) -> {
                throw boom("H9");
              });
      case THROW_H11 -> {
        // task_work queued on every tick makes the exit to user mode run H11.
        c.hook(
            TickHook.class,
            (cpu, curr, s) -> s.defer(DeferKind.TASK_WORK, curr, cpu.id(), 100, 0, x -> {}));
        c.hook(
            ExitToUserHook.class,
            (cpu, task, s) -> {
              throw boom("H11");
            });
      }
      case THROW_H13 ->
          c.hook(
              IpiPrepareHook.class,
              target -> {
                throw boom("H13");
              });
      case THROW_H14 ->
          c.hook(
              RunnableWakeHook.class,
              (cpu, task, s) -> {
                throw boom("H14");
              });
      case THROW_H16 ->
          c.hook(
              SelectTaskRqHook.class,
              (p, prev, waker, flags, selected) -> {
                throw boom("H16");
              });
      case THROW_H17 ->
          c.hook(
              LoadBalanceHook.class,
              (dst, sd, idle, local, busiest, type, imbalance) -> {
                throw boom("H17");
              });
      case THROW_H18 ->
          c.hook(
              PeltHook.class,
              (p, ewma, dequeued, runnable, cap, mainline) -> {
                throw boom("H18");
              });
      case H16_IGNORES_AFFINITY ->
          c.hook(
              SelectTaskRqHook.class,
              (p, prev, waker, flags, selected) -> {
                for (int cpu = 0; ; cpu++) {
                  if (!p.allowedOn(cpu)) {
                    return cpu;
                  }
                }
              });
      case THROW_MODEL -> c.addPreemptionModel(new ThrowingModel());
      case THROW_IDLE_POLICY -> c.addIdlePolicy(new ThrowingGovernor());
      case THROW_TIMER_CALLBACK ->
          c.hook(
              TickHook.class,
              new TickHook() {
                private boolean armed;

                @Override
                public void onTick(CpuView cpu, TaskView curr, SchedServices s) {
                  if (!armed) {
                    armed = true;
                    s.newTimer(
                            cpu.id(),
                            (x, now) -> {
                              throw boom("timer callback");
                            })
                        .arm(s.now() + 1_000_000);
                  }
                }
              });
      case TIME_BACKWARDS ->
          c.hook(
              TickHook.class,
              (cpu, curr, s) ->
                  s.defer(DeferKind.WORKQUEUE, curr, cpu.id(), 1_000, -5_000, x -> {}));
      case LOOPS_FOREVER ->
          c.hook(
              TickHook.class,
              (cpu, curr, s) -> {
                while (!RELEASE_LOOPS.get()) {
                  java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                }
                throw boom("a loop released by the test");
              });
      case ALLOCATES ->
          c.hook(
              TickHook.class,
              (cpu, curr, s) -> {
                List<long[]> hoard = new ArrayList<>();
                while (true) {
                  hoard.add(new long[1 << 17]);
                }
              });
      case RECURSES -> c.hook(TickHook.class, (cpu, curr, s) -> s.counter("depth").add(depth(0)));
      case READS_INTERNALS ->
          c.hook(
              TickHook.class,
              (cpu, curr, s) -> {
                try {
                  Object cls = curr.getClass().getDeclaredField("sclass").get(curr);
                  s.counter("fault.read_" + cls).increment();
                } catch (ReflectiveOperationException e) {
                  throw new IllegalStateException(e);
                }
              });
      default -> c.addSchedulingClass(new ExtClass(fault));
    }
  }

  private static long depth(long n) {
    return 1 + depth(n + 1);
  }

  /** A working SCHED_EXT class (per-CPU FIFO, the running task off the queue) with one fault. */
  static final class ExtClass implements SchedulingClass {
    private final Fault fault;
    private ArrayDeque<TaskView>[] queues;
    private TaskView[] running;
    private MachineView machine;
    private int enqueues;

    ExtClass(Fault fault) {
      this.fault = fault;
    }

    private void maybeThrow(Fault f) {
      if (fault == f) {
        throw boom(f.name());
      }
    }

    @Override
    public String name() {
      return "ext";
    }

    @Override
    public int rank() {
      return RANK_EXT;
    }

    @Override
    public boolean handles(Policy policy) {
      return policy == Policy.EXT;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void init(MachineView m, SchedServices services) {
      maybeThrow(Fault.THROW_CLASS_INIT);
      machine = m;
      queues = (ArrayDeque<TaskView>[]) new ArrayDeque<?>[m.nrCpus()];
      for (int i = 0; i < queues.length; i++) {
        queues[i] = new ArrayDeque<>();
      }
      running = new TaskView[m.nrCpus()];
    }

    @Override
    public void enqueue(RqView rq, TaskView p, int flags) {
      maybeThrow(Fault.THROW_CLASS_ENQUEUE);
      if (fault == Fault.LOSES_TASKS && ++enqueues % 3 == 0) {
        return;
      }
      if (running[rq.cpu()] != p) {
        queues[rq.cpu()].addLast(p);
      }
    }

    @Override
    public boolean dequeue(RqView rq, TaskView p, int flags) {
      maybeThrow(Fault.THROW_CLASS_DEQUEUE);
      queues[rq.cpu()].remove(p);
      return true;
    }

    @Override
    public TaskView pickNext(RqView rq) {
      maybeThrow(Fault.THROW_CLASS_PICKNEXT);
      if (fault == Fault.NEVER_PICKS) {
        return null;
      }
      if (fault == Fault.PICKS_OTHER_CPU) {
        for (int c = 0; c < queues.length; c++) {
          if (c != rq.cpu() && !queues[c].isEmpty()) {
            return queues[c].peekFirst();
          }
        }
      }
      TaskView curr = running[rq.cpu()];
      return curr != null && curr.onRq() ? curr : queues[rq.cpu()].peekFirst();
    }

    @Override
    public void putPrev(RqView rq, TaskView prev) {
      maybeThrow(Fault.THROW_CLASS_PUTPREV);
      if (running[rq.cpu()] == prev) {
        running[rq.cpu()] = null;
        if (prev.onRq()) {
          queues[rq.cpu()].addLast(prev);
        }
      }
    }

    @Override
    public void setNext(RqView rq, TaskView next) {
      maybeThrow(Fault.THROW_CLASS_SETNEXT);
      queues[rq.cpu()].remove(next);
      running[rq.cpu()] = next;
    }

    @Override
    public void tick(RqView rq, TaskView curr) {
      maybeThrow(Fault.THROW_CLASS_TICK);
    }

    @Override
    public void wakeupPreempt(RqView rq, TaskView p, int wakeFlags) {
      maybeThrow(Fault.THROW_CLASS_WAKEUPPREEMPT);
    }

    @Override
    public int selectCpu(TaskView p, int prevCpu, int wakerCpu, int wakeFlags) {
      maybeThrow(Fault.THROW_CLASS_SELECTCPU);
      if (fault == Fault.IGNORES_AFFINITY) {
        for (int c = 0; c < machine.nrCpus(); c++) {
          if (!p.allowedOn(c)) {
            return c;
          }
        }
      }
      return prevCpu;
    }

    @Override
    public void updateCurr(RqView rq, TaskView curr, long deltaExecNs) {
      maybeThrow(Fault.THROW_CLASS_UPDATECURR);
    }

    @Override
    public int nrQueued(RqView rq) {
      TaskView curr = running[rq.cpu()];
      return queues[rq.cpu()].size() + (curr != null && curr.onRq() ? 1 : 0);
    }
  }

  /** A preemption model named {@code fault-model} that throws when asked for a bit. */
  static final class ThrowingModel implements PreemptionModel {
    @Override
    public String name() {
      return "fault-model";
    }

    @Override
    public ReschedBit chooseBit(RqView rq, TaskView curr, ReschedReason reason) {
      throw boom("chooseBit");
    }

    @Override
    public boolean honours(PreemptPoint point, ReschedBit bit) {
      return true;
    }

    @Override
    public boolean tickUpgrade(RqView rq, TaskView curr) {
      return false;
    }
  }

  /** An idle policy named {@code fault-governor} that throws when asked for a state. */
  static final class ThrowingGovernor implements IdlePolicy {
    @Override
    public String name() {
      return "fault-governor";
    }

    @Override
    public int select(CpuView cpu, long sleepLengthNs, long tickDeltaNs, long latencyLimitNs) {
      throw boom("select");
    }

    @Override
    public boolean stopTick(CpuView cpu, int stateIndex, long sleepLengthNs) {
      return false;
    }
  }
}
