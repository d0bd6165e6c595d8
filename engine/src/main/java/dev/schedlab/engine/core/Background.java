package dev.schedlab.engine.core;

import dev.schedlab.api.DeferKind;
import dev.schedlab.api.DeferredWork;
import dev.schedlab.engine.bg.BackgroundRates;
import dev.schedlab.engine.bg.TimerWheelStream;
import dev.schedlab.engine.params.Param;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * The host's own background kernel activity on every CPU (docs/model.md, "Background kernel
 * activity"): timer-wheel timers that expire in TIMER_SOFTIRQ, the work their callbacks queue on
 * the CPU's kworker, and the RCU callbacks they queue.
 *
 * <p>Models: the tick's check of the wheel ({@code run_local_timers()}: TIMER_SOFTIRQ when a timer
 * is due), the softirq running the callbacks at IRQ exit before SCHED and RCU; nohz: a CPU that
 * stops its tick in idle programs it for its next non-deferrable timer ({@code
 * tick_nohz_stop_tick()} with {@code get_next_timer_interrupt()}), and the governor's sleep length
 * counts that timer; deferrable timers expire at the next tick that comes anyway. Work items go
 * through {@link Deferred} to the CPU's bound kworker (a fair kthread woken on that CPU), RCU
 * callbacks through its grace-period model.
 *
 * <p>Does not model: which subsystem owns which timer (one measured rate per CPU), timer migration,
 * ksoftirqd.
 *
 * <p>Kernel reference: {@code kernel/time/timer.c} ({@code run_local_timers}, {@code
 * run_timer_softirq}, {@code get_next_timer_interrupt}), {@code kernel/time/tick-sched.c} ({@code
 * tick_nohz_next_event}, {@code tick_nohz_stop_tick}), {@code kernel/workqueue.c} ({@code
 * delayed_work_timer_fn}), {@code kernel/rcu/tree.c} ({@code call_rcu}).
 */
final class Background {
  private static final DeferredWork NOTHING = cpu -> {};

  private final Kernel k;
  private final TimerWheelStream[] wheels;

  /** Per CPU: the tick found a timer due (TIMER_SOFTIRQ pending). */
  private final boolean[] raised;

  private final long callbackNs;
  private final long burstNs;
  private final MetricCounter softirqTimer;
  private final MetricCounter expiries;

  private Background(Kernel k, BackgroundRates rates, long seed) {
    this.k = k;
    this.callbackNs = k.costs.p(Param.BG_TIMER_CALLBACK);
    this.burstNs = k.costs.p(Param.BG_KWORKER_BURST);
    SplittableRandom root = new SplittableRandom(seed ^ 0x62676B77L); // "bgkw"
    wheels = new TimerWheelStream[k.cpus.length];
    for (int c = 0; c < wheels.length; c++) {
      wheels[c] = new TimerWheelStream(rates, root.split());
    }
    raised = new boolean[k.cpus.length];
    softirqTimer = k.metrics.counter("softirq.timer");
    expiries = k.metrics.counter("bg.timer_expiries");
  }

  /** The machine's background, or null when its rate is 0 (then nothing of it runs). */
  static @Nullable Background of(Kernel k, long seed) {
    BackgroundRates rates =
        BackgroundRates.fromTable(
            k.costs.p(Param.BG_TIMER_RATE),
            k.costs.p(Param.BG_TIMER_DEFERRABLE),
            k.costs.p(Param.BG_KWORKER_SHARE),
            k.costs.p(Param.BG_RCU_CALLBACKS));
    return rates.active() ? new Background(k, rates, seed) : null;
  }

  /** In the tick's interrupt: raise TIMER_SOFTIRQ if a wheel timer is due. */
  void tick(Cpu cpu) {
    if (wheels[cpu.id].due(k.now)) {
      raised[cpu.id] = true;
    }
  }

  /** Whether TIMER_SOFTIRQ is raised on {@code cpu}. */
  boolean raised(Cpu cpu) {
    return raised[cpu.id];
  }

  /**
   * TIMER_SOFTIRQ on {@code cpu}, if raised: the due callbacks, then a stopped tick reprogrammed
   * for the next timer an idle CPU must wake for. Cost to {@link Kernel#pathCost}.
   */
  void softirq(Cpu cpu) {
    if (!raised[cpu.id]) {
      return;
    }
    raised[cpu.id] = false;
    softirqTimer.value++;
    TimerWheelStream w = wheels[cpu.id];
    int n = w.expire(k.now);
    expiries.value += n;
    k.pathCost += n * callbackNs;
    for (int i = 0; i < w.works(); i++) {
      k.deferred.submit(DeferKind.WORKQUEUE, cpu.id, burstNs, 0, NOTHING);
    }
    for (int i = 0; i < w.rcuCallbacks(); i++) {
      k.deferred.submit(DeferKind.RCU_CALLBACK, cpu.id, 0, 0, NOTHING);
    }
    if (cpu.tickStopped && !cpu.tickEv.scheduled()) {
      programStoppedTick(cpu);
    }
  }

  /** The tick was stopped: it fires again at the jiffy of the next non-deferrable timer. */
  void programStoppedTick(Cpu cpu) {
    long at = nextTimerTickNs(cpu);
    if (at != Long.MAX_VALUE) {
      k.queue.schedule(cpu.tickEv, at);
    }
  }

  /** The tick at or after the next non-deferrable timer of {@code cpu}, after now. */
  long nextTimerTickNs(Cpu cpu) {
    long due = wheels[cpu.id].nextHardNs();
    if (due == Long.MAX_VALUE) {
      return due;
    }
    long tick = (due + k.tickNs - 1) / k.tickNs * k.tickNs;
    return Math.max(tick, k.nextTickBoundary());
  }
}
