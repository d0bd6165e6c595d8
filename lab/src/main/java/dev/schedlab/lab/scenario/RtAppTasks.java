package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.lab.rtapp.RtAppPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the task of one rt-app thread: its attributes, then the program rt-app's {@code
 * thread_body()} runs: its setup (name, log file); for a thread started by rt-app's main, thread 0
 * taking {@code t_zero} and the wait at the start barrier until every started thread is there
 * (forked threads skip it); the custom slice, the initial delay (absolute, from {@code t_zero}),
 * the move to the task's taskgroup, then the thread loop over the phases, each phase repeated
 * {@code loop} times with its affinity set when it changes and its own taskgroup joined, and stamps
 * around the phase and its run events for the log rows. Every thread is a template: rt-app's main
 * thread creates them ({@link RtAppBinder}).
 */
final class RtAppTasks {
  /** rt-app's {@code t_zero}: thread 0's clock before the start barrier; timers count from it. */
  static final String T_ZERO = "rtapp/t_zero";

  private static final String START_BARRIER = "rtapp/start";

  private final RtAppEvents events;
  private final List<String> notes;
  private final boolean stamps;
  private final long setupNs;
  private final int startedThreads;

  RtAppTasks(
      RtAppEvents events, List<String> notes, boolean stamps, long setupNs, int startedThreads) {
    this.events = events;
    this.notes = notes;
    this.stamps = stamps;
    this.setupNs = setupNs;
    this.startedThreads = startedThreads;
  }

  TaskSpec task(RtAppThread t, String name, boolean template, RtAppPlan.Builder plan, int index)
      throws ScenarioException {
    List<RtAppPlan.PhasePlan> phasePlans = new ArrayList<>();
    List<List<StepSpec>> phaseBodies = new ArrayList<>();
    for (RtAppThread.Phase p : t.phases) {
      List<RtAppPlan.TimedEvent> timed = new ArrayList<>();
      List<StepSpec> body = new ArrayList<>();
      body.add(new StepSpec.Clock(RtAppPlan.START));
      for (RtAppEvents.Event e : p.events()) {
        body.addAll(events.steps(e, t, timed));
      }
      body.add(new StepSpec.Clock(RtAppPlan.END));
      phaseBodies.add(body);
      phasePlans.add(new RtAppPlan.PhasePlan(p.loop(), timed));
    }
    plan.add(new RtAppPlan.ThreadPlan(t.key, name, index, template, t.policy, t.loop, phasePlans));
    List<StepSpec> body = new ArrayList<>();
    int n = t.phases.size();
    for (int i = 0; i < n; i++) {
      String cpus = t.cpusOf(t.phases.get(i));
      String before = t.cpusOf(t.phases.get((i + n - 1) % n));
      if (!cpus.equals(before) && (i > 0 || t.loop != 1)) {
        body.add(new StepSpec.Affinity(cpus));
      }
      String group = t.phases.get(i).taskgroup();
      if (group != null) {
        body.add(new StepSpec.Cgroup(RtAppTaskGroups.name(group))); // set_thread_taskgroup()
      }
      body.addAll(repeat(t.phases.get(i).loop(), phaseBodies.get(i)));
    }
    List<StepSpec> program = new ArrayList<>();
    program.add(new StepSpec.User(Dist.fixed(setupNs)));
    if (index == 0) {
      program.add(new StepSpec.Stamp(T_ZERO));
    }
    if (!template) {
      program.add(new StepSpec.Barrier(START_BARRIER, startedThreads));
    }
    String policy = policy(t.policy);
    if (t.dlRuntimeUs > 0 && (policy.equals("normal") || policy.equals("batch"))) {
      program.add(new StepSpec.Slice(t.dlRuntimeUs * 1000));
      if (!t.obj.has("dl-runtime") && index <= 0) {
        notes.add(
            RtAppNotes.where(t.obj.get("runtime"))
                + ": the legacy task-level runtime key"
                + " also sets the thread's custom slice, as rt-app does");
      }
    }
    if (t.delayUs > 0) {
      program.add(new StepSpec.SleepAbs(t.delayUs * 1000, T_ZERO));
    }
    if (t.taskgroup != null) {
      program.add(new StepSpec.Cgroup(RtAppTaskGroups.name(t.taskgroup)));
    }
    if (t.loop < 0) {
      program.add(new StepSpec.Loop(Integer.MAX_VALUE, body));
    } else {
      if (t.loop > 0) {
        program.addAll(repeat(t.loop, body));
      }
      program.add(new StepSpec.Exit());
    }
    if (!stamps) {
      program = withoutStamps(program);
    }
    boolean rt = policy.equals("fifo") || policy.equals("rr");
    boolean dl = policy.equals("deadline");
    return new TaskSpec(
        name,
        0,
        policy,
        rt || dl ? 0 : t.priority,
        rt ? t.priority : 0,
        dl ? t.dlRuntimeUs * 1000 : 0,
        dl ? t.dlDeadlineUs * 1000 : 0,
        dl ? t.dlPeriodUs * 1000 : 0,
        t.cpusOf(t.phases.get(0)),
        false,
        false,
        "own",
        0,
        program);
  }

  /** {@code steps} run {@code loop} times (0 or less: forever, as rt-app's phase loop). */
  private static List<StepSpec> repeat(long loop, List<StepSpec> steps) {
    if (loop == 1) {
      return steps;
    }
    int count = loop <= 0 ? Integer.MAX_VALUE : (int) Math.min(loop, Integer.MAX_VALUE);
    return List.of(new StepSpec.Loop(count, steps));
  }

  private static List<StepSpec> withoutStamps(List<StepSpec> steps) {
    List<StepSpec> out = new ArrayList<>();
    for (StepSpec s : steps) {
      if (s instanceof StepSpec.Clock) {
        continue;
      }
      out.add(
          s instanceof StepSpec.Loop l ? new StepSpec.Loop(l.count(), withoutStamps(l.body())) : s);
    }
    return out;
  }

  static String policy(String rtApp) {
    return switch (rtApp) {
      case "SCHED_FIFO" -> "fifo";
      case "SCHED_RR" -> "rr";
      case "SCHED_DEADLINE" -> "deadline";
      case "SCHED_BATCH" -> "batch";
      case "SCHED_IDLE" -> "idle";
      default -> "normal";
    };
  }
}
