package dev.schedlab.engine.core;

import dev.schedlab.engine.params.Param;
import java.util.SplittableRandom;

/**
 * KVM's host-side halt polling for a guest vCPU that executed HLT.
 *
 * <p>Models: the host polls for a wake event for up to the vCPU's {@code halt_poll_ns} before it
 * schedules the vCPU thread out; an event caught while polling re-enters the guest without a trip
 * through the host scheduler ({@code latency.vm_halt_poll_wake} instead of {@code
 * latency.vm_halted_wake}). The window adapts per vCPU after each halt: a halt shorter than the
 * host's {@code halt_poll_ns} grows it (times {@code halt_poll_ns_grow}, at least {@code
 * halt_poll_ns_grow_start}); a halt longer than that shrinks it (reset to 0 by the default shrink
 * factor 0). Periodic guest wakeups closer than 200 us are therefore caught by polling, rarer ones
 * are not.
 *
 * <p>A wakeup the host schedules takes {@code latency.vm_halted_wake} at its median; with the
 * measured spread ({@code latency.vm_halted_wake_spread_p10}, {@code _p90}, {@code _p99}) each is
 * drawn from the host's quantiles, linearly between them ({@link #hostWake}): the tail is the host
 * scheduler's wakeup of the vCPU thread, which the model does not simulate. Draws come from
 * per-vCPU streams split from the seed apart from the workload's and the kernel paths'.
 *
 * <p>Does not model: other tasks on the vCPU thread's host CPU (the thread has it to itself, {@code
 * single_task_running()}), invalid wakeups (every wakeup is valid), and the time after the wake
 * event (a halt is measured up to it).
 *
 * <p>Kernel reference: {@code virt/kvm/kvm_main.c} ({@code kvm_vcpu_halt}, {@code
 * grow_halt_poll_ns}, {@code shrink_halt_poll_ns}).
 */
final class HaltPolling {
  private final Kernel k;
  private final MetricCounter polled;
  private final MetricCounter waited;
  private final long medianNs;
  private final long belowP10Ns;
  private final long aboveP90Ns;
  private final long aboveP99Ns;

  /** Per-vCPU streams for the host's wake latency; empty while it has no spread. */
  private SplittableRandom[] rng = new SplittableRandom[0];

  HaltPolling(Kernel k) {
    this.k = k;
    polled = k.metrics.counter("kvm.halt_poll_success");
    waited = k.metrics.counter("kvm.halt_wait");
    medianNs = k.costs.p(Param.VM_HALTED_WAKE);
    belowP10Ns = k.costs.p(Param.VM_HALTED_WAKE_SPREAD_P10);
    aboveP90Ns = k.costs.p(Param.VM_HALTED_WAKE_SPREAD_P90);
    aboveP99Ns = Math.max(aboveP90Ns, k.costs.p(Param.VM_HALTED_WAKE_SPREAD_P99));
  }

  /** Splits the vCPUs' wake-latency streams from {@code seed}, if the host's wake has a spread. */
  void seed(long seed) {
    if (belowP10Ns == 0 && aboveP99Ns == 0) {
      return; // a fixed latency draws nothing, so machines without the spread keep their digests
    }
    SplittableRandom root = new SplittableRandom(seed ^ 0x6B766D68616C74L); // "kvmhalt"
    rng = new SplittableRandom[k.cpus.length];
    for (int c = 0; c < rng.length; c++) {
      rng[c] = root.split();
    }
  }

  /**
   * A wake event reaches {@code cpu}, halted for {@code haltedNs}: the host's latency until the
   * guest runs again. Adapts the vCPU's poll window as the host does at the end of the halt.
   */
  long wake(Cpu cpu, long haltedNs) {
    long max = k.costs.p(Param.KVM_HALT_POLL_NS);
    cpu.haltPollNs = Math.min(cpu.haltPollNs, max);
    boolean caught = cpu.haltPollNs > 0 && haltedNs <= cpu.haltPollNs;
    long latency;
    if (caught) {
      polled.value++;
      latency = k.costs.p(Param.VM_HALT_POLL_WAKE);
    } else {
      waited.value++;
      latency = rng.length == 0 ? medianNs : hostWake(rng[cpu.id].nextDouble());
    }
    adapt(cpu, haltedNs, max);
    return latency;
  }

  /**
   * The host's wake latency at quantile {@code u}: the 10th percentile below u = 0.1, linear
   * through the 10th, 50th, 90th and 99th, the 99th above u = 0.99 (one run's maximum is too rare a
   * figure to shape the tail by).
   */
  long hostWake(double u) {
    double offset;
    if (u < 0.1) {
      offset = -belowP10Ns;
    } else if (u < 0.5) {
      offset = -belowP10Ns * (0.5 - u) / 0.4;
    } else if (u < 0.9) {
      offset = aboveP90Ns * (u - 0.5) / 0.4;
    } else if (u < 0.99) {
      offset = aboveP90Ns + (aboveP99Ns - aboveP90Ns) * (u - 0.9) / 0.09;
    } else {
      offset = aboveP99Ns;
    }
    return Math.max(0, medianNs + Math.round(offset));
  }

  private void adapt(Cpu cpu, long haltNs, long max) {
    if (max == 0) {
      cpu.haltPollNs = 0;
    } else if (haltNs <= cpu.haltPollNs) {
      return; // the window was right
    } else if (cpu.haltPollNs != 0 && haltNs > max) {
      shrink(cpu); // a long block: polling was wasted
    } else if (cpu.haltPollNs < max && haltNs < max) {
      grow(cpu); // a short halt the window missed
    }
  }

  private void grow(Cpu cpu) {
    long factor = k.costs.p(Param.KVM_HALT_POLL_NS_GROW);
    if (factor == 0) {
      return;
    }
    cpu.haltPollNs =
        Math.max(cpu.haltPollNs * factor, k.costs.p(Param.KVM_HALT_POLL_NS_GROW_START));
  }

  private void shrink(Cpu cpu) {
    long divisor = k.costs.p(Param.KVM_HALT_POLL_NS_SHRINK);
    long val = divisor == 0 ? 0 : cpu.haltPollNs / divisor;
    cpu.haltPollNs = val < k.costs.p(Param.KVM_HALT_POLL_NS_GROW_START) ? 0 : val;
  }
}
