package dev.schedlab.traceimport.workload;

import dev.schedlab.engine.params.Mitigations;
import dev.schedlab.engine.params.Param;
import dev.schedlab.engine.params.ParamTable;
import dev.schedlab.lab.scenario.Scenario;

/**
 * The kernel paths the model runs itself when it replays a task, with their costs from the
 * parameter table of the machine the replay runs on. A traced stretch on a CPU holds the task's own
 * work and these paths (the kernel's versions of them); the replay program keeps the work and lets
 * the model add its own paths, so they are not counted twice: the context switch into the task
 * ({@code __schedule()} with its pick and {@code context_switch()}), the syscall entry and exit
 * around each wakeup it makes and each block or sleep, and {@code try_to_wake_up()}. Interrupt
 * handlers inside the stretch are taken out by their traced time instead.
 */
public final class PathCosts {
  private final long switchFromTask;
  private final long switchFromIdle;
  private final long syscall;
  private final long exitToUser;
  private final long wakeLocal;
  private final long wakeRemote;
  private final long wakeRemoteActivate;
  private final long queuedWakeup;

  private PathCosts(ParamTable p) {
    long schedule = p.get(Param.SCHED_BASE) + p.get(Param.PICK_FAIR);
    switchFromTask = schedule + p.get(Param.CTX_SWITCH);
    switchFromIdle = schedule + p.get(Param.CTX_SWITCH_LIGHT);
    exitToUser = p.get(Param.EXIT_TO_USER);
    syscall = p.get(Param.SYSCALL_ENTRY) + exitToUser;
    wakeLocal = p.get(Param.SELECT_RQ) + p.get(Param.TTWU_LOCAL);
    // a wakeup onto another CPU queues it there (TTWU_QUEUE): the waker selects the CPU and
    // queues; the wakee's CPU activates it (sched_ttwu_pending() from the call-function queue),
    // in the model inside the switch into the wakee, and fetches back the two lines the waker
    // touched: the queue head (llist_del_all()) and the rq line holding rq->idle
    // (update_rq_clock()); docs/model.md, "Resched protocol and IPIs"
    wakeRemote = p.get(Param.SELECT_RQ);
    // onto another CPU of the LLC that is busy, the waker activates it there after taking that
    // runqueue's lock and clock lines (docs/model.md, "Wakeups")
    wakeRemoteActivate = wakeLocal + 2 * p.get(Param.CACHELINE_SAME_LLC);
    queuedWakeup =
        p.get(Param.CSD_FN) + p.get(Param.TTWU_LOCAL) + 2 * p.get(Param.CACHELINE_SAME_LLC);
  }

  /** The costs of the machine and kernel of {@code s}. */
  public static PathCosts of(Scenario s) {
    ParamTable p =
        ParamTable.of(
            Mitigations.defaults(s.machine().mitigations(), s.kernel().params()),
            s.kernel().params(),
            s.kernel().features());
    return new PathCosts(p);
  }

  /** The switches into a task: {@code fromTask} from another task, {@code fromIdle} from idle. */
  public long switchIns(long fromTask, long fromIdle) {
    return fromTask * switchFromTask + fromIdle * switchFromIdle;
  }

  /** Queued wakeups activated by the switch into the task. */
  public long queuedWakeups(long n) {
    return n * queuedWakeup;
  }

  /**
   * One wakeup system call; {@code queued} onto an idle CPU (else done by the waker), {@code
   * remote} onto another, busy CPU.
   */
  public long wake(boolean queued, boolean remote) {
    return syscall + (queued ? wakeRemote : remote ? wakeRemoteActivate : wakeLocal);
  }

  /** One blocking or sleeping system call (entry before, exit to user after it). */
  public long block() {
    return syscall;
  }

  /** The blocking system call a task was inside when the trace began: its exit to user only. */
  public long blockEnteredBefore() {
    return exitToUser;
  }
}
