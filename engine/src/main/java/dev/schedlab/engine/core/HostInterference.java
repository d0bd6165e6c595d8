package dev.schedlab.engine.core;

import dev.schedlab.engine.config.NoiseSpec;
import dev.schedlab.engine.params.Param;
import dev.schedlab.engine.sim.Event;
import java.util.SplittableRandom;

/**
 * Time a CPU loses to something outside the modelled kernel: a VM guest's vCPU stopped while the
 * host handles an exit or runs something else on its physical CPU (steal time), or a bare-metal CPU
 * in an SMI.
 *
 * <p>Models: while a CPU is stalled nothing on it advances: its current phase is pushed back by the
 * stall, and interrupts that arrive meanwhile are taken when it ends. Two sources. In a guest,
 * every expiry of the vCPU's local-APIC timer (tick or hrtimer) exits to the host, which injects
 * the vector {@code latency.vm_timer_delivery} later: the interrupt is raised when the stall ends,
 * whether the vCPU was running or halted (a halted one then also pays its wake). And the machine's
 * measured noise ({@code machine.noise}, from {@code schedlab host --calibrate}): stalls arriving
 * as a Poisson process per CPU, their lengths drawn by the measured bins' rates and uniformly
 * within the bin, from per-CPU streams split from the seed apart from the workload's.
 *
 * <p>Does not model: what the host does meanwhile (the noise is a measured profile, not a
 * mechanism), steal-time accounting in the guest, and different delivery latencies by vCPU state.
 *
 * <p>Kernel reference: {@code arch/x86/kvm/lapic.c} ({@code apic_timer_expired}), {@code
 * arch/x86/kvm/x86.c} (the exit and entry); Documentation/virt/kvm/x86/timekeeping.rst.
 */
final class HostInterference {
  private final Kernel k;
  private final long timerDeliveryNs;
  private final double meanGapNs;
  private final NoiseSpec.Bin[] bins;

  /** Cumulative shares of the bins' rates, for drawing a stall's bin. */
  private final double[] cumulative;

  private final SplittableRandom[] rng;
  private final Event[] noiseEv;
  private final MetricCounter stalls;
  private final MetricCounter stallNs;
  private final MetricCounter timerExits;

  HostInterference(Kernel k, NoiseSpec noise, long seed) {
    this.k = k;
    this.timerDeliveryNs = k.virtualized ? k.costs.p(Param.VM_TIMER_DELIVERY) : 0;
    this.stalls = k.metrics.counter("host.stalls");
    this.stallNs = k.metrics.counter("host.stall_ns");
    this.timerExits = k.metrics.counter("host.timer_exits");
    if (!noise.active()) {
      meanGapNs = 0;
      bins = new NoiseSpec.Bin[0];
      cumulative = new double[0];
      rng = new SplittableRandom[0];
      noiseEv = new Event[0];
      return;
    }
    meanGapNs = 1e9 / noise.ratePerSecond();
    bins = noise.bins().toArray(new NoiseSpec.Bin[0]);
    cumulative = new double[bins.length];
    double sum = 0;
    for (int i = 0; i < bins.length; i++) {
      sum += bins[i].ratePerSecond();
      cumulative[i] = sum / noise.ratePerSecond();
    }
    SplittableRandom root = new SplittableRandom(seed ^ 0x6E6F697365L); // "noise"
    rng = new SplittableRandom[k.cpus.length];
    noiseEv = new Event[k.cpus.length];
    for (int c = 0; c < k.cpus.length; c++) {
      rng[c] = root.split();
      noiseEv[c] = new Event(EventLoop.EV_NOISE, c, null);
    }
  }

  /** Schedules every CPU's first noise stall, if the machine has noise. */
  void start() {
    for (int c = 0; c < noiseEv.length; c++) {
      k.queue.schedule(noiseEv[c], k.now + gap(c));
    }
  }

  /** A noise stall begins on {@code cpu}; the next one is drawn. */
  void noise(Cpu cpu) {
    SplittableRandom r = rng[cpu.id];
    double u = r.nextDouble();
    int i = 0;
    while (i < bins.length - 1 && u >= cumulative[i]) {
      i++;
    }
    NoiseSpec.Bin b = bins[i];
    stall(cpu, k.now + b.fromNs() + r.nextLong(b.toNs() - b.fromNs()));
    k.queue.schedule(noiseEv[cpu.id], k.now + gap(cpu.id));
  }

  private long gap(int cpu) {
    return 1 + Math.round(-StrictMath.log(1.0 - rng[cpu].nextDouble()) * meanGapNs);
  }

  /**
   * Whether the interrupt event {@code e} (tick, hrtimer, IPI) must wait: {@code cpu} is stalled,
   * or it is a guest's timer expiry, which first exits to the host. The event is then scheduled
   * again for when the stall ends.
   */
  boolean defer(Cpu cpu, Event e, boolean timer) {
    if (cpu.stalledUntil <= k.now) {
      if (!timer || timerDeliveryNs == 0 || k.now == cpu.timerInjectAt) {
        return false;
      }
      timerExits.value++;
      stall(cpu, k.now + k.costs.jitter(cpu, timerDeliveryNs));
    }
    // An expiry during a stall is injected when the vCPU runs again, with no exit of its own.
    if (timer) {
      cpu.timerInjectAt = cpu.stalledUntil;
    }
    k.queue.schedule(e, cpu.stalledUntil);
    return true;
  }

  /** Stops {@code cpu} until {@code until}: its current phase ends that much later. */
  void stall(Cpu cpu, long until) {
    long from = Math.max(k.now, cpu.stalledUntil);
    if (until <= from) {
      return;
    }
    long extra = until - from;
    stalls.value++;
    stallNs.value += extra;
    cpu.stalledUntil = until;
    if (cpu.phaseEv.scheduled()) {
      k.queue.schedule(cpu.phaseEv, cpu.phaseEv.time() + extra);
      cpu.phaseStart += extra; // a scaled op's elapsed work does not grow meanwhile
    }
  }
}
