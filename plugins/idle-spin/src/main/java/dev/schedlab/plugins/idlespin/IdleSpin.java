package dev.schedlab.plugins.idlespin;

import dev.schedlab.api.SchedServices;
import dev.schedlab.api.TaskState;
import dev.schedlab.api.hook.BeforeDeactivateHook;
import dev.schedlab.api.hook.RunnableWakeHook;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The busy wait before going idle of the 2018 RFC, through hooks H2 and H14.
 *
 * <p>Models: In {@code __schedule()}, when {@code prev} blocks (not RUNNING, no signal) and {@code
 * rq->nr_running == 1} (prev is the only task queued, so the CPU would go idle), hook H2 returns a
 * spin limit instead of letting {@code deactivate_task()} run: once per {@code __schedule()} (the
 * RFC's {@code do_idle_spin = false}). The engine then drops the runqueue lock and keeps prev
 * current and queued ({@code curr = prev}, {@code nr_running = 1}, {@code on_rq = 1}), with IRQs
 * on, while the CPU burns the time (charged to prev, as the kernel's {@code update_curr()} would):
 * the CPU is not idle for wakeup placement ({@code idle_cpu()} is false, the LLC's idle count does
 * not include it) nor for load balancing, and its time is unavailable to other tasks. The loop ends
 * when prev is woken, NEED_RESCHED is set (a wakeup that preempts, a tick that ends the slice with
 * other work queued), or the limit passes; then the block stage is evaluated again: woken, prev
 * just continues (no dequeue, no {@code select_task_rq()}, no enqueue, no switch to and from idle,
 * no idle entry/exit, no C-state exit, no wakeup IPI: the waker took {@code ttwu_runnable()}); not
 * woken, the normal sleep path runs (dequeue, switch to idle, cpuidle). Hook H14 observes the
 * {@code ttwu_runnable()} wakeups of a spinning task (for the predictor below).
 *
 * <p>Options ({@link IdleSpinOptions}): {@code limit} (RFC 1 ms; Peter Zijlstra's "only long enough
 * to amortize the schedule switch context" is a limit of a few µs); {@code predict=ewma}, Peter's
 * "ask the estimator before doing this": a per-CPU EWMA (weight 1/8) of the sleep lengths of the
 * tasks blocking on that CPU, fed by this plugin's own hooks because the spin hides the idle time
 * from the cpuidle predictor (Peter: "the 'idle' time is not in fact fed into the cpuidle
 * predictor"). A sleep that ended inside the spin is measured exactly (H14 time minus block time);
 * any other sleep is measured at the task's next block as elapsed time minus the CPU time it
 * consumed meanwhile, plus the spin it was granted (so it includes the time the task then waited on
 * a runqueue). The spin is skipped when the prediction exceeds {@code limit} and otherwise bounded
 * by {@code predict_slack} times the prediction.
 *
 * <p>Does not model: Signals ({@code signal_pending_state()}: the engine has none). The spin-loop
 * exit cost ("10s of cycles", a branch mispredict) is not charged; the rest of {@code __schedule()}
 * after {@code goto idle_spin_end} (clock update, pick of prev again) is the engine's, which runs
 * it again when the spin ends. Pavan Kondeti's variant "spin while nr_running == 1" ({@code
 * exit_on_enqueue=true}) needs hook H2 to re-check {@code nr_running} on enqueue, which it does not
 * (docs/fidelity.md, seed 004), and is rejected; with the RFC's loop, a task enqueued on the
 * spinning CPU ends the spin only if wakeup preemption sets NEED_RESCHED: a fair task queued behind
 * a spinning RT task, or behind a fair task EEVDF still protects, waits until the spin ends
 * (Pavan's point 1), and an RT wakee sees a busy CPU and is placed elsewhere (point 2). The plugin
 * never spins for a task that is exiting ({@code do_task_dead()}, state DEAD): the RFC would (and
 * always time out); Piggin agreed "we must immediately switch in case of do_task_dead". Integration
 * with the cpuidle POLL state ({@code poll_idle()}) is not modelled. The spinning thread slows its
 * SMT siblings as the engine's SMT sharing charges any spinning or polling thread ({@code
 * smt.spin_weight_pm}, an estimate): the same weight as powernv's snooze loop, although the RFC
 * spins at {@code HMT_low} ({@code spin_begin()}) and snooze at {@code HMT_very_low}.
 *
 * <p>Kernel reference: "[RFC PATCH] kernel/sched/core: busy wait before going idle", Nicholas
 * Piggin, LKML 2018-04-15, against v4.17-rc ({@code kernel/sched/core.c}, {@code __schedule()});
 * replies by Peter Zijlstra (2018-04-20) and Pavan Kondeti (2018-04-23). Never merged; no v2 was
 * posted.
 */
final class IdleSpin implements BeforeDeactivateHook, RunnableWakeHook {
  /** EWMA weight 1/8, as {@code update_avg()} of {@code rq->avg_idle}. */
  private static final int EWMA_SHIFT = 3;

  private final IdleSpinOptions opts;

  /** Per task: its last block, for the predictor. */
  private final Map<Integer, Sleep> sleeps = new HashMap<>();

  /** Per CPU predicted sleep length (ns), or -1 before the first sample. */
  private long[] predicted = new long[0];

  IdleSpin(IdleSpinOptions opts) {
    this.opts = opts;
  }

  /** One block of a task. */
  private static final class Sleep {
    int cpu;
    long blockAt;
    long execAtBlock;
    long granted;
    boolean measured;
  }

  @Override
  public long spinLimitNs(CpuView cpu, TaskView prev, RqView rq) {
    Sleep s = opts.predict() ? observeBlock(cpu.id(), prev, rq.clock()) : null;
    long limit = decide(cpu.id(), prev, rq);
    if (s != null) {
      s.granted = limit;
    }
    return limit;
  }

  private long decide(int cpu, TaskView prev, RqView rq) {
    // RFC: if (unlikely(do_idle_spin && rq->nr_running == 1)); never for a dying task.
    if (prev.state() == TaskState.DEAD || prev.isIdleTask() || rq.nrRunning() != 1) {
      return 0;
    }
    long limit = opts.limitNs();
    if (opts.predict()) {
      long p = prediction(cpu);
      if (p >= 0) {
        if (p > limit) {
          return 0; // a long predicted idle: spinning would only waste cycles
        }
        limit = Math.max(1, Math.min(limit, opts.predictSlack() * p));
      }
    }
    return limit;
  }

  /**
   * Takes the sample of {@code prev}'s previous sleep if not yet measured, and records this block;
   * returns {@code prev}'s entry, which now holds this block.
   */
  private Sleep observeBlock(int cpu, TaskView prev, long now) {
    Sleep s = sleeps.computeIfAbsent(prev.pid(), k -> new Sleep());
    if (s.blockAt > 0 && !s.measured) {
      long elapsed = now - s.blockAt;
      long ran = prev.sumExecNs() - s.execAtBlock;
      sample(s.cpu, Math.max(0, elapsed - ran + s.granted));
    }
    s.cpu = cpu;
    s.blockAt = Math.max(1, now);
    s.execAtBlock = prev.sumExecNs();
    s.granted = 0;
    s.measured = false;
    return s;
  }

  @Override
  public void onRunnableWake(CpuView cpu, TaskView task, SchedServices services) {
    if (!opts.predict() || !task.onCpu() || cpu.rq().curr() != task) {
      return;
    }
    Sleep s = sleeps.get(task.pid());
    if (s != null && s.granted > 0 && !s.measured && s.cpu == cpu.id()) {
      // Woken inside the spin: the exact sleep length the cpuidle predictor never sees.
      s.measured = true;
      sample(s.cpu, services.now() - s.blockAt);
    }
  }

  private void sample(int cpu, long ns) {
    if (cpu >= predicted.length) {
      int old = predicted.length;
      predicted = Arrays.copyOf(predicted, Math.max(cpu + 1, 2 * old));
      Arrays.fill(predicted, old, predicted.length, -1);
    }
    long avg = predicted[cpu];
    predicted[cpu] = avg < 0 ? ns : avg + ((ns - avg) >> EWMA_SHIFT);
  }

  /** The predicted sleep length on {@code cpu}, or -1 without history. */
  long prediction(int cpu) {
    return cpu < predicted.length ? predicted[cpu] : -1;
  }
}
