package dev.schedlab.engine.idle;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.MachineView;

/**
 * The haltpoll cpuidle governor of KVM guests (drivers/cpuidle/governors/haltpoll.c, with the
 * cpuidle-haltpoll driver's two states: POLL and a HLT state). A vCPU polls for up to its own
 * adaptive window ({@code dev->poll_limit_ns}) before it halts, so a wakeup that comes soon after
 * the vCPU went idle avoids the exit to the host.
 *
 * <p>Models, per CPU: {@code haltpoll_select()}: poll (tick kept) while the PM QoS limit is 0; halt
 * (tick stopped) while the window is 0; after a poll that reached its time limit, halt; after a
 * poll that was interrupted or after a halt, poll again. {@code haltpoll_reflect()}: after a halt,
 * {@code adjust_poll_limit()} grows the window (x {@code guest_halt_poll_grow}, at least {@code
 * guest_halt_poll_grow_start}, at most {@code guest_halt_poll_ns}) when the halt lasted longer than
 * the window but not longer than {@code guest_halt_poll_ns}, and shrinks it (/ {@code
 * guest_halt_poll_shrink}, to 0 below the grow start) when it lasted longer. The window is the poll
 * time limit ({@code cpuidle_poll_time()} returns {@code dev->poll_limit_ns}); while it is 0 the
 * first poll caches the driver's default there, as the kernel does.
 *
 * <p>Does not model: the host's halt polling, which is the engine's (core/HaltPolling).
 *
 * <p>Kernel reference: {@code drivers/cpuidle/governors/haltpoll.c} ({@code haltpoll_select},
 * {@code haltpoll_reflect}, {@code adjust_poll_limit}), {@code drivers/cpuidle/cpuidle-haltpoll.c}.
 */
public final class HaltpollGovernor implements IdlePolicy {
  private long haltPollNs;
  private long grow;
  private long growStart;
  private long shrink;
  private boolean allowShrink;
  private long[] pollLimitNs;
  private int[] lastStateIdx;
  private boolean[] pollTimeLimit;
  private boolean[] stopTick;

  @Override
  public String name() {
    return "haltpoll";
  }

  @Override
  public void init(MachineView machine) {
    int n = machine.nrCpus();
    haltPollNs = machine.param("haltpoll.guest_halt_poll_ns");
    grow = machine.param("haltpoll.guest_halt_poll_grow");
    growStart = machine.param("haltpoll.guest_halt_poll_grow_start");
    shrink = machine.param("haltpoll.guest_halt_poll_shrink");
    allowShrink = machine.param("haltpoll.guest_halt_poll_allow_shrink") != 0;
    pollLimitNs = new long[n]; // haltpoll_enable_device()
    lastStateIdx = new int[n];
    pollTimeLimit = new boolean[n];
    stopTick = new boolean[n];
  }

  @Override
  public int select(CpuView cpu, long sleepLengthNs, long tickDeltaNs, long latencyLimitNs) {
    int c = cpu.id();
    stopTick[c] = true; // cpuidle_idle_call()'s default
    if (latencyLimitNs == 0) {
      stopTick[c] = false;
      return 0;
    }
    if (pollLimitNs[c] == 0) {
      return 1;
    }
    if (lastStateIdx[c] == 0 && pollTimeLimit[c]) {
      return 1; // no event came within the poll window: halt
    }
    stopTick[c] = false;
    return 0;
  }

  @Override
  public boolean stopTick(CpuView cpu, int stateIndex, long sleepLengthNs) {
    return stopTick[cpu.id()];
  }

  @Override
  public void reflect(CpuView cpu, int stateIndex, long residencyNs, boolean timeLimit) {
    int c = cpu.id();
    lastStateIdx[c] = stateIndex;
    if (stateIndex == 0) {
      pollTimeLimit[c] = timeLimit; // set by poll_idle()
    } else {
      adjustPollLimit(c, residencyNs);
    }
  }

  @Override
  public long pollTimeLimitNs(CpuView cpu, long cpuidlePollTimeNs) {
    int c = cpu.id();
    if (pollLimitNs[c] == 0) {
      pollLimitNs[c] = cpuidlePollTimeNs; // cpuidle_poll_time() caches its default
    }
    return pollLimitNs[c];
  }

  private void adjustPollLimit(int c, long blockNs) {
    if (blockNs > pollLimitNs[c] && blockNs <= haltPollNs) {
      long val = Math.max(pollLimitNs[c] * grow, growStart);
      pollLimitNs[c] = Math.min(val, haltPollNs);
    } else if (blockNs > haltPollNs && allowShrink) {
      long val = shrink == 0 ? 0 : pollLimitNs[c] / shrink;
      pollLimitNs[c] = val < growStart ? 0 : val;
    }
  }
}
