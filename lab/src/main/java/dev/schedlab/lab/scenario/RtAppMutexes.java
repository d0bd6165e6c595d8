package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.StepSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place where rt-app's pthread mutexes become steps: glibc's default mutexes on a futex
 * word ({@link StepSpec.MutexLock}, {@link StepSpec.MutexUnlock}), as rt-app makes them when {@code
 * pi_enabled} is false. A mutex starts unlocked; an unlock hands nothing over, so the thread that
 * unlocks and locks again before its woken waiter runs keeps it, as with the real rt-app.
 */
final class RtAppMutexes {
  private static String futex(String mutex) {
    return "rtapp/mutex/" + mutex;
  }

  /** {@code pthread_mutex_lock}. */
  List<StepSpec> lock(String mutex) {
    return List.of(new StepSpec.MutexLock(futex(mutex)));
  }

  /** {@code pthread_mutex_unlock}. */
  List<StepSpec> unlock(String mutex) {
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
}
