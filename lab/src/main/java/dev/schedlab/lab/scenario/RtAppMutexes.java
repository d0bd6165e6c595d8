package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.StepSpec;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The one place where rt-app's pthread mutexes become steps. Without {@code pi_enabled} they are
 * glibc's default mutexes on a futex word ({@link StepSpec.MutexLock}, {@link
 * StepSpec.MutexUnlock}): an unlock hands nothing over, so the thread that unlocks and locks again
 * before its woken waiter runs keeps it. With it, rt-app makes them {@code PTHREAD_PRIO_INHERIT}
 * (src/rt-app_parse_config.c, {@code init_mutex_resource()}): PI futexes on an {@code rt_mutex}
 * ({@link StepSpec.PiMutexLock}). A condition wait releases and retakes its mutex the same way
 * (glibc 2.25+'s condition variables have no priority inheritance of their own: {@link
 * StepSpec.CondWait}), and so does a barrier event, built from a mutex and a condition.
 */
final class RtAppMutexes {
  private final boolean pi;
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

  /** {@code pthread_mutex_lock}. */
  List<StepSpec> lock(String mutex) {
    if (pi) {
      piLocks.add(piLock(mutex));
      return List.of(new StepSpec.PiMutexLock(piLock(mutex)));
    }
    return List.of(new StepSpec.MutexLock(futex(mutex)));
  }

  /** {@code pthread_mutex_unlock}. */
  List<StepSpec> unlock(String mutex) {
    if (pi) {
      return List.of(new StepSpec.PiMutexUnlock(piLock(mutex)));
    }
    return List.of(new StepSpec.MutexUnlock(futex(mutex)));
  }

  /** {@code pthread_cond_wait(cond, mutex)}: unlock, sleep until signalled, lock again. */
  List<StepSpec> condWait(String condQueue, String mutex) {
    if (pi) {
      piLocks.add(piLock(mutex));
      return List.of(new StepSpec.CondWait(condQueue, piLock(mutex), true));
    }
    return List.of(new StepSpec.CondWait(condQueue, futex(mutex)));
  }

  /**
   * rt-app's {@code barrier} event: a mutex and a condition of its own (init_barrier_resource(), PI
   * with {@code pi_enabled} as the others).
   */
  StepSpec barrier(String name, int users) {
    String queue = "rtapp/barrier/" + name;
    if (pi) {
      String lock = piLock("barrier/" + name);
      piLocks.add(lock);
      return new StepSpec.Barrier(queue, users, lock, true);
    }
    return new StepSpec.Barrier(queue, users, futex("barrier/" + name), false);
  }

  /** The rt_mutex locks of the PI mutexes used. */
  List<LockSpec> locks() {
    return piLocks.stream().map(n -> new LockSpec(n, LockSpec.Kind.RT_MUTEX)).toList();
  }
}
