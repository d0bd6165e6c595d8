package dev.schedlab.plugins.preemptauto;

import dev.schedlab.api.PreemptPoint;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.ReschedBit;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import java.util.Arrays;

/**
 * A PREEMPT_AUTO (series v1, 2024-02) preemption model: {@code auto-none}, {@code auto-voluntary}
 * or {@code auto-full}. One instance per run (it keeps a little per-CPU state for the tick rule).
 *
 * <p>Models:
 *
 * <ul>
 *   <li>H3, {@code resched_opt_translate()} (core.c, patches 03, 23 and 26/30), in the kernel's
 *       order: {@code RESCHED_FORCE} ({@link ReschedReason#FORCE}) → NR; {@code full} → NR for
 *       everything; {@code voluntary} and {@code RESCHED_PRIORITY} → NR, where {@code
 *       RESCHED_PRIORITY} is the cross-class branch of {@code wakeup_preempt()} ({@link
 *       ReschedReason#WAKEUP_HIGHER_CLASS}, patch 26/30); an idle curr ({@link
 *       ReschedReason#IDLE_CURR}, or {@link TaskView#isIdleTask()}) → NR; otherwise LAZY. {@link
 *       ReschedReason#RESCHED_CPU} ({@code resched_cpu()} = {@code RESCHED_DEFAULT}) and same-class
 *       wakeups are LAZY outside full.
 *   <li>H4: CONFIG_PREEMPTION is always on, so {@code irqentry_exit_cond_resched()} and {@code
 *       preempt_enable()} act on NR in every AUTO mode (outside non-preemptible spans, which the
 *       engine enforces); {@code cond_resched()} and {@code might_resched()} are no-ops
 *       (CONFIG_PREEMPTION without PREEMPT_DYNAMIC); exit to user acts on NR and LAZY.
 *   <li>H4 tick upgrade (patch 23/30 "sched: force preemption on tick expiration"): {@code
 *       resched_opt_translate(curr, RESCHED_TICK)} returns NR when LAZY is already set. {@code
 *       RESCHED_TICK} is what {@code task_tick_fair()} issues on slice expiry (the engine's {@link
 *       ReschedReason#SLICE_EXPIRY_TICK}, raised from {@code update_curr()} at the tick only when
 *       more than one fair entity is queued). {@link #chooseBit} cannot see the pending bit, so the
 *       two halves are split: the slice-expiry request is answered LAZY and recorded (CPU, pid,
 *       clock); {@link #tickUpgrade}, which the engine calls at every tick while LAZY is pending
 *       (after the tick's {@code update_curr()}), upgrades iff that tick raised a slice-expiry
 *       request for curr <em>and</em> the LAZY bit had been set by an earlier request (an earlier
 *       tick's expiry, or a lazy wakeup). So a hog gets one extra tick after its first expiry
 *       ("upgrade lazy to eager on the second tick"), and a LAZY with no further tick request (for
 *       example a deadline wakeup over the only fair task under {@code auto-none}) waits for exit
 *       to user, as in the kernel. Not applied under {@code auto-full}, which never sets LAZY.
 * </ul>
 *
 * <p>Does not model: The v1 arch details (TIF_NEED_RESCHED_LAZY placement, x86 entry code), {@code
 * preempt=none}'s RCU and cond_resched interaction debated in the thread, runtime mode switching
 * through debugfs ({@code __sched_dynamic_update()}), and the deadline/RT throttle paths that patch
 * 23/30 moved to {@code RESCHED_TICK} (the engine's classes raise {@link ReschedReason#FORCE}
 * there, which Juri Lelli's review of 23/30 asked for anyway). The model's "LAZY already set"
 * bookkeeping assumes a LAZY answered to a task stays pending until that task stops being curr; if
 * {@code __schedule()} clears it and picks the same task again, a later tick upgrade can come one
 * slice-expiry earlier than in the kernel.
 *
 * <p>Kernel reference: Series "[PATCH 00/30] PREEMPT_AUTO: support lazy rescheduling"
 * (https://lore.kernel.org/r/20240213055554.1802415-1-ankur.a.arora@oracle.com), patch 26/30
 * "sched: handle preempt=voluntary under PREEMPT_AUTO"
 * (https://lore.kernel.org/r/20240213055554.1802415-27-ankur.a.arora@oracle.com), based on Thomas
 * Gleixner's PoC (https://lore.kernel.org/lkml/87jzshhexi.ffs@tglx/). <b>Merge status:</b> not
 * merged; the successor PREEMPT_LAZY (Peter Zijlstra, "sched: Lazy preemption muck") was merged in
 * v6.13 as tip 7c70cb94d29c, which the engine's built-in {@code lazy} model follows.
 */
public final class AutoModel implements PreemptionModel {
  /** The {@code preempt=} mode under PREEMPT_AUTO. */
  public enum Mode {
    /** preempt=none: everything lazy except idle/FORCE/tick upgrade. */
    NONE("auto-none"),
    /** preempt=voluntary (patch 26/30): a higher-class wakeup is eager. */
    VOLUNTARY("auto-voluntary"),
    /** preempt=full: everything eager. */
    FULL("auto-full");

    private final String modelName;

    Mode(String modelName) {
      this.modelName = modelName;
    }

    /** The scenario name, {@code kernel.preempt}. */
    public String modelName() {
      return modelName;
    }
  }

  /**
   * "No request recorded" in the pid arrays. Not -1: the idle task of CPU 0 has id -1 (idle tasks
   * are never recorded, but the sentinel should not be a real id).
   */
  private static final int NONE = Integer.MIN_VALUE;

  private final Mode mode;

  /**
   * Per CPU, indexed by {@code rq.cpu()}: the first LAZY answer for the current holder of the bit
   * (pid and rq clock), {@link #NONE} if none. Grown on demand: the model does not see the machine.
   */
  private int[] lazyPid = new int[0];

  private long[] lazyClock = new long[0];

  /** Per CPU: the last RESCHED_TICK (slice expiry) request, as above. */
  private int[] tickPid = new int[0];

  private long[] tickClock = new long[0];

  /** A fresh model for {@code mode}. */
  public AutoModel(Mode mode) {
    this.mode = mode;
  }

  /** The mode. */
  public Mode mode() {
    return mode;
  }

  @Override
  public String name() {
    return mode.modelName();
  }

  @Override
  public ReschedBit chooseBit(RqView rq, TaskView curr, ReschedReason reason) {
    ReschedBit bit = translate(curr, reason);
    if (bit == ReschedBit.LAZY && curr != null) {
      int cpu = rq.cpu();
      ensureCpu(cpu);
      int pid = curr.pid();
      long clock = rq.clock();
      if (lazyPid[cpu] != pid) {
        lazyPid[cpu] = pid;
        lazyClock[cpu] = clock;
      }
      if (reason == ReschedReason.SLICE_EXPIRY_TICK) {
        tickPid[cpu] = pid;
        tickClock[cpu] = clock;
      }
    }
    return bit;
  }

  /** Grows the per-CPU arrays to hold {@code cpu}; new slots record nothing. */
  private void ensureCpu(int cpu) {
    if (cpu < lazyPid.length) {
      return;
    }
    int old = lazyPid.length;
    int n = Math.max(cpu + 1, old * 2);
    lazyPid = Arrays.copyOf(lazyPid, n);
    lazyClock = Arrays.copyOf(lazyClock, n);
    tickPid = Arrays.copyOf(tickPid, n);
    tickClock = Arrays.copyOf(tickClock, n);
    Arrays.fill(lazyPid, old, n, NONE);
    Arrays.fill(tickPid, old, n, NONE);
  }

  /** {@code resched_opt_translate()} without the "LAZY already set" half (see the class doc). */
  private ReschedBit translate(TaskView curr, ReschedReason reason) {
    if (reason == ReschedReason.FORCE) {
      return ReschedBit.NR;
    }
    if (mode == Mode.FULL) {
      return ReschedBit.NR;
    }
    if (mode == Mode.VOLUNTARY && reason == ReschedReason.WAKEUP_HIGHER_CLASS) {
      return ReschedBit.NR;
    }
    if (reason == ReschedReason.IDLE_CURR || curr == null || curr.isIdleTask()) {
      return ReschedBit.NR;
    }
    return ReschedBit.LAZY;
  }

  @Override
  public boolean honours(PreemptPoint point, ReschedBit bit) {
    if (bit == ReschedBit.NONE) {
      return false;
    }
    switch (point) {
      case EXIT_TO_USER:
        return true;
      case IRQ_EXIT_KERNEL:
      case PREEMPT_ENABLE:
        return bit == ReschedBit.NR;
      case COND_RESCHED:
      case MIGHT_RESCHED:
      default:
        return false;
    }
  }

  @Override
  public boolean tickUpgrade(RqView rq, TaskView curr) {
    if (mode == Mode.FULL || curr == null || curr.isIdleTask()) {
      return false;
    }
    int cpu = rq.cpu();
    if (cpu >= lazyPid.length) {
      return false;
    }
    int pid = curr.pid();
    long clock = rq.clock();
    boolean tickRequestNow = tickPid[cpu] == pid && tickClock[cpu] == clock;
    boolean lazyBefore = lazyPid[cpu] == pid && lazyClock[cpu] < clock;
    if (tickRequestNow && lazyBefore) {
      lazyPid[cpu] = NONE;
      tickPid[cpu] = NONE;
      return true;
    }
    return false;
  }
}
