package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The one place where rt-app's pthread mutexes become steps. Today a mutex is a wait queue holding
 * one token (a kthread {@code rt-app-init} puts the tokens there at start): lock takes the token or
 * sleeps, unlock gives it back or wakes the first sleeper. Priority inheritance and the kernel's
 * futex paths are not modelled; when the engine has real mutexes, only this class changes.
 */
final class RtAppMutexes {
  private final Set<String> used = new LinkedHashSet<>();

  private String queue(String mutex) {
    used.add(mutex);
    return "rtapp/mutex/" + mutex;
  }

  /** {@code pthread_mutex_lock}. */
  List<StepSpec> lock(String mutex) {
    return List.of(new StepSpec.Block(queue(mutex)));
  }

  /** {@code pthread_mutex_unlock}. */
  List<StepSpec> unlock(String mutex) {
    return List.of(new StepSpec.Wake(queue(mutex), false));
  }

  /**
   * {@code pthread_cond_wait(cond, mutex)}: sleep on the condition releasing the mutex, then retake
   * it.
   */
  List<StepSpec> condWait(String condQueue, String mutex) {
    List<StepSpec> out = new ArrayList<>();
    out.add(new StepSpec.CondWait(condQueue, queue(mutex)));
    out.addAll(lock(mutex));
    return out;
  }

  /** Tasks to add to the workload so that every mutex starts unlocked (none when none is used). */
  List<TaskSpec> initTasks() {
    if (used.isEmpty()) {
      return List.of();
    }
    List<StepSpec> init = new ArrayList<>();
    for (String m : used) {
      init.add(new StepSpec.Wake("rtapp/mutex/" + m, false));
    }
    init.add(new StepSpec.Exit());
    return List.of(
        new TaskSpec("rt-app-init", 1, "normal", 0, 0, 0, 0, 0, "", false, true, "own", 0, init));
  }
}
