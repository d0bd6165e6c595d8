package dev.schedlab.classes;

import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.TimerHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * CFS bandwidth control of one group ({@code struct cfs_bandwidth}, cgroup v2 {@code cpu.max}).
 *
 * <p>Models: the global pool refilled to the quota by the period timer; each runqueue of the group
 * drawing slices of {@code sched_cfs_bandwidth_slice} (5 ms) from it as its tasks run ({@code
 * account_cfs_rq_runtime()}, {@code assign_cfs_rq_runtime()}), a reschedule when a runqueue runs
 * dry, and its throttling at the next {@code put_prev} ({@code check_cfs_rq_runtime()}, {@code
 * throttle_cfs_rq()}); the period timer refilling the pool and handing each throttled runqueue what
 * it overran plus 1 ns, unthrottling those that get enough ({@code distribute_cfs_runtime()}), and
 * stopping after an idle period; a runqueue whose last task leaves returns all but 1 ms ({@code
 * min_cfs_rq_runtime}) to the pool ({@code return_cfs_rq_runtime()}) and, if runqueues are
 * throttled, arms the slack timer (5 ms, not within 2 ms of the period's end) that distributes it.
 *
 * <p>Does not model: {@code cpu.max.burst}, the asynchronous (CSD) unthrottle of remote CPUs (done
 * at once here), hierarchical quota limits of parents over children beyond each level's own
 * throttling.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code __refill_cfs_bandwidth_runtime}, {@code
 * __assign_cfs_rq_runtime}, {@code __account_cfs_rq_runtime}, {@code sched_cfs_period_timer},
 * {@code do_sched_cfs_period_timer}, {@code distribute_cfs_runtime}, {@code return_cfs_rq_runtime},
 * {@code do_sched_cfs_slack_timer}).
 */
final class FairBandwidth {
  /** {@code sysctl_sched_cfs_bandwidth_slice}: 5 ms. */
  static final long SLICE_NS = 5_000_000L;

  /** {@code min_cfs_rq_runtime}: 1 ms. */
  static final long MIN_RQ_RUNTIME_NS = 1_000_000L;

  /** {@code cfs_bandwidth_slack_period}: 5 ms. */
  static final long SLACK_PERIOD_NS = 5_000_000L;

  /** {@code min_bandwidth_expiration}: 2 ms. */
  static final long MIN_EXPIRATION_NS = 2_000_000L;

  private final FairHierarchy fair;
  private final SchedServices services;
  final long quota;
  final long period;

  /** {@code cfs_b->runtime}: what is left of this period's quota. */
  long runtime;

  private boolean idle;
  private boolean periodActive;
  private @Nullable TimerHandle periodTimer;
  private long periodExpires;
  private @Nullable TimerHandle slackTimer;

  /** {@code throttled_cfs_rq}, in throttling order. */
  final List<FairRq> throttled = new ArrayList<>();

  FairBandwidth(FairHierarchy fair, SchedServices services, FairGroup tg, long quota, long period) {
    this.fair = fair;
    this.services = services;
    this.quota = quota;
    this.period = period;
    this.runtime = quota;
    for (FairRq q : tg.q) {
      q.runtimeEnabled = true;
    }
  }

  /** {@code __account_cfs_rq_runtime()}: charge {@code delta} of run time to {@code q}. */
  void account(FairRq q, long delta) {
    if (q.throttled) {
      return;
    }
    q.runtimeRemaining -= delta;
    if (q.runtimeRemaining > 0) {
      return;
    }
    assign(q, SLICE_NS - q.runtimeRemaining);
    if (q.runtimeRemaining <= 0 && q.curr != null) {
      services.resched(q.cpu, ReschedReason.FORCE); // out of runtime: throttle at put_prev
    }
  }

  /** {@code __assign_cfs_rq_runtime()}: up to {@code want} from the pool; starts the period. */
  boolean assign(FairRq q, long want) {
    startPeriod(q.cpu);
    long amount = Math.min(runtime, want);
    runtime -= amount;
    q.runtimeRemaining += amount;
    if (amount > 0) {
      idle = false;
    }
    return q.runtimeRemaining > 0;
  }

  private void startPeriod(int cpu) {
    if (periodActive) {
      return;
    }
    periodActive = true;
    if (periodTimer == null) {
      periodTimer = services.newTimer(cpu, (c, now) -> periodTimer(now));
    }
    periodExpires = services.now() + period;
    periodTimer.arm(periodExpires);
  }

  /** {@code sched_cfs_period_timer()}: refill, distribute, keep going while in use. */
  private void periodTimer(long now) {
    services.counter("fair.bandwidth_periods").increment();
    if (idle && throttled.isEmpty()) {
      periodActive = false; // a whole period without use: stop until the next assign
      return;
    }
    runtime = quota;
    distribute();
    idle = true;
    periodExpires = now + period;
    Objects.requireNonNull(periodTimer).arm(periodExpires); // this is its callback, so it exists
  }

  /** {@code distribute_cfs_runtime()}: each throttled runqueue gets its overrun plus 1 ns. */
  private void distribute() {
    for (int i = 0; i < throttled.size() && runtime > 0; ) {
      FairRq q = throttled.get(i);
      long give = Math.min(runtime, -q.runtimeRemaining + 1);
      runtime -= give;
      q.runtimeRemaining += give;
      if (q.runtimeRemaining > 0) {
        throttled.remove(i);
        fair.unthrottle(q);
      } else {
        i++;
      }
    }
  }

  /** {@code return_cfs_rq_runtime()}: the runqueue emptied; give back all but 1 ms. */
  void returnRuntime(FairRq q) {
    long slack = q.runtimeRemaining - MIN_RQ_RUNTIME_NS;
    if (slack <= 0) {
      return;
    }
    runtime += slack;
    q.runtimeRemaining -= slack;
    if (runtime > SLICE_NS && !throttled.isEmpty()) {
      startSlackTimer(q.cpu);
    }
  }

  private void startSlackTimer(int cpu) {
    if (periodActive && periodExpires - services.now() < SLACK_PERIOD_NS + MIN_EXPIRATION_NS) {
      return; // the period timer comes soon enough
    }
    if (slackTimer == null) {
      slackTimer =
          services.newTimer(
              cpu,
              (c, now) -> {
                if (runtime > SLICE_NS) {
                  distribute();
                }
              });
    }
    if (!slackTimer.armed()) {
      slackTimer.arm(services.now() + SLACK_PERIOD_NS);
    }
  }

  /** {@code throttle_cfs_rq()}'s pool part: a last try for runtime; true when it must throttle. */
  boolean mustThrottle(FairRq q) {
    if (assign(q, 1)) {
      return false;
    }
    throttled.add(q);
    return true;
  }
}
