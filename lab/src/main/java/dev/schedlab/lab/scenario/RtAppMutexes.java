package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.StepSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The one place where rt-app's pthread mutexes become steps. Without {@code pi_enabled} they are
 * glibc's default mutexes on a futex word ({@link StepSpec.MutexLock}, {@link
 * StepSpec.MutexUnlock}): an unlock hands nothing over, so the thread that unlocks and locks again
 * before its woken waiter runs keeps it. With it, rt-app makes them {@code PTHREAD_PRIO_INHERIT}
 * (src/rt-app_parse_config.c, {@code init_mutex_resource()}): PI futexes on an {@code rt_mutex}
 * ({@link StepSpec.PiMutexLock}), except a mutex a condition uses (wait, sync, suspend, resume),
 * whose PI condition wait ({@code futex_wait_requeue_pi()}) is not modelled: it stays a default
 * one, noted.
 */
final class RtAppMutexes {
  private final boolean pi;
  private final Set<String> withCondition = new LinkedHashSet<>();
  private final Set<String> piLocks = new LinkedHashSet<>();

  RtAppMutexes(boolean pi) {
    this.pi = pi;
  }

  private static String futex(String mutex) {
    return "rtapp/mutex/" + mutex;
  }

  /** The lock class of PI mutex {@code mutex} (lock_stat names: no spaces or dots). */
  private static String piLock(String mutex) {
    return "rtapp/pi_mutex/" + mutex.replaceAll("[\\s.]", "_");
  }

  /** First pass: {@code mutex} is used by a condition variable. */
  void usedWithCondition(String mutex) {
    withCondition.add(mutex);
  }

  private boolean isPi(String mutex) {
    return pi && !withCondition.contains(mutex);
  }

  /** {@code pthread_mutex_lock}. */
  List<StepSpec> lock(String mutex) {
    if (isPi(mutex)) {
      piLocks.add(piLock(mutex));
      return List.of(new StepSpec.PiMutexLock(piLock(mutex)));
    }
    return List.of(new StepSpec.MutexLock(futex(mutex)));
  }

  /** {@code pthread_mutex_unlock}. */
  List<StepSpec> unlock(String mutex) {
    if (isPi(mutex)) {
      return List.of(new StepSpec.PiMutexUnlock(piLock(mutex)));
    }
    return List.of(new StepSpec.MutexUnlock(futex(mutex)));
  }

  /**
   * {@code pthread_cond_wait(cond, mutex)}: sleep on the condition unlocking the mutex, then lock
   * it again.
   */
  List<StepSpec> condWait(String condQueue, String mutex) {
    List<StepSpec> out = new ArrayList<>();
    out.add(new StepSpec.CondWait(condQueue, futex(mutex)));
    out.addAll(lock(mutex));
    return out;
  }

  /** The rt_mutex locks of the PI mutexes used. */
  List<LockSpec> locks() {
    return piLocks.stream().map(n -> new LockSpec(n, LockSpec.Kind.RT_MUTEX)).toList();
  }

  /** The mutexes that stay default ones although {@code pi_enabled} is set. */
  Set<String> notPi() {
    return pi ? withCondition : Set.of();
  }
}
