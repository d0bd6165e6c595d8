package dev.schedlab.engine.core;

import dev.schedlab.engine.params.Param;
import dev.schedlab.engine.params.ParamTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SMT throughput sharing: the hardware threads of a core share its execution resources, so each
 * runs slower when its siblings are busy.
 *
 * <p>Models: with {@code n} the sum of the threads' demands (1 for a busy thread, {@code
 * smt.spin_weight_pm} for one spinning or polling at low priority, 0 idle), the core delivers
 * {@code 1 + (n - 1) * smt.extra_thread_gain_pm} single-thread units and each thread runs at that
 * divided by {@code n}. Task computation (P_TASK ops) is stretched accordingly; when a sibling's
 * demand changes, the remaining work of every running op on the core is rescaled.
 *
 * <p>Does not model: per-instruction-mix effects, shared-cache interference, or kernel paths
 * (scheduling, IRQs, idle entry) slowing down, whose costs stay as in the parameter table.
 *
 * <p>Kernel reference: none in the kernel (a hardware property); the scheduler's view of it is
 * {@code SD_SHARE_CPUCAPACITY} ({@code kernel/sched/topology.c}) and the pause / {@code HMT_low} of
 * spin loops ({@code cpu_relax()}).
 */
final class SmtSharing {
  private final Kernel k;
  private final double gain;
  private final double spinWeight;

  private SmtSharing(Kernel k, double gain, double spinWeight) {
    this.k = k;
    this.gain = gain;
    this.spinWeight = spinWeight;
  }

  /** Sharing for a machine with SMT, or null when every core has a single thread. */
  static SmtSharing forMachine(Kernel k, Cpu[] cpus, ParamTable params) {
    Map<Integer, List<Cpu>> cores = new HashMap<>();
    for (Cpu c : cpus) {
      cores.computeIfAbsent(c.coreId, x -> new ArrayList<>()).add(c);
    }
    boolean any = false;
    for (Cpu c : cpus) {
      c.siblings = cores.get(c.coreId).toArray(new Cpu[0]);
      any |= c.siblings.length > 1;
    }
    if (!any) {
      return null;
    }
    return new SmtSharing(
        k,
        params.get(Param.SMT_EXTRA_THREAD_GAIN) / 1000.0,
        params.get(Param.SMT_SPIN_WEIGHT) / 1000.0);
  }

  private double demand(Cpu cpu) {
    switch (cpu.phase) {
      case Cpu.P_IDLE_WAKE:
        return 0;
      case Cpu.P_SPIN:
        return spinWeight;
      case Cpu.P_IDLE_STATE:
        {
          var s = k.idleStates.get(cpu.idleStateIdx);
          return s.busyLoop() ? spinWeight : 0;
        }
      default:
        return 1;
    }
  }

  /** {@code cpu} entered a new phase: if its demand changed, rescale its core. */
  void loadChanged(Cpu cpu) {
    double d = demand(cpu);
    if (d == cpu.smtLoad) {
      return;
    }
    cpu.smtLoad = d;
    double n = 0;
    for (Cpu s : cpu.siblings) {
      n += s.smtLoad;
    }
    double share = n <= 1 ? 1.0 : (1 + (n - 1) * gain) / n;
    for (Cpu s : cpu.siblings) {
      double rate = share * s.speed;
      if (s.rate != rate) {
        rescale(s, rate);
      }
    }
  }

  private void rescale(Cpu s, double rate) {
    if (s.phase == Cpu.P_TASK && s.opScaled && s.phaseEv.scheduled()) {
      double left = Math.max(0, s.opWork - (k.now - s.phaseStart) * s.rate);
      s.opWork = left;
      s.phaseStart = k.now;
      s.rate = rate;
      k.queue.schedule(s.phaseEv, k.now + (long) Math.ceil(left / rate));
    } else {
      s.rate = rate;
    }
  }
}
