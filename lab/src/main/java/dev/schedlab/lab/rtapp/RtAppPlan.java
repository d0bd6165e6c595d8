package dev.schedlab.lab.rtapp;

import java.util.List;

/**
 * What a run needs to know about an rt-app file after it became task programs: the static shape of
 * every thread (phases and their timed events, to rebuild rt-app's per-phase log rows from the
 * run's stamps), the log settings, and the notes of the import (keys without meaning in the model,
 * dialect rewrites).
 *
 * @param file the file as named on the command line or in the scenario
 * @param log log settings
 * @param nsPerLoop rt-app's {@code pLoad}: ns per calibration loop ({@code perf} column)
 * @param cumulativeSlack {@code global.cumulative_slack}
 * @param threads threads in rt-app's creation order, then templates of forked threads
 * @param notes one line each
 */
public record RtAppPlan(
    String file,
    LogSpec log,
    long nsPerLoop,
    boolean cumulativeSlack,
    List<ThreadPlan> threads,
    List<String> notes) {
  public RtAppPlan {
    threads = List.copyOf(threads);
    notes = List.copyOf(notes);
  }

  /** Collects the threads of a plan while the file is bound. */
  public static final class Builder {
    private final String file;
    private final LogSpec log;
    private final long nsPerLoop;
    private final boolean cumulativeSlack;
    private final List<ThreadPlan> threads = new java.util.ArrayList<>();

    public Builder(String file, LogSpec log, long nsPerLoop, boolean cumulativeSlack) {
      this.file = file;
      this.log = log;
      this.nsPerLoop = nsPerLoop;
      this.cumulativeSlack = cumulativeSlack;
    }

    public void add(ThreadPlan t) {
      threads.add(t);
    }

    /** The plan, with the import's {@code notes}. */
    public RtAppPlan build(List<String> notes) {
      return new RtAppPlan(file, log, nsPerLoop, cumulativeSlack, threads, notes);
    }
  }

  /** Keys of the time series the task programs record ({@code clock/COMM/KEY}). */
  public static final String START = "start";

  public static final String END = "end";
  public static final String RUN_BEGIN = "run_b";
  public static final String RUN_END = "run_e";
  public static final String SLACK = "slack";
  public static final String WAKE = "wu";

  /**
   * One rt-app thread, or the template of forked ones.
   *
   * @param key the task's key in the file
   * @param name the thread's name ({@code KEY-INDEX}); for a template, its key
   * @param index rt-app's thread index ({@code idx} column); -1 for a template
   * @param template whether it is only created by fork events
   * @param policy the policy as rt-app prints it ({@code SCHED_OTHER})
   * @param loop thread loop count (-1 = forever, 0 = none)
   * @param phases its phases in order
   */
  public record ThreadPlan(
      String key,
      String name,
      int index,
      boolean template,
      String policy,
      long loop,
      List<PhasePlan> phases) {
    public ThreadPlan {
      phases = List.copyOf(phases);
    }
  }

  /**
   * One phase.
   *
   * @param loop how many times it runs before the next (0 or less: forever)
   * @param events its timed events in order
   */
  public record PhasePlan(long loop, List<TimedEvent> events) {
    public PhasePlan {
      events = List.copyOf(events);
    }

    /** {@code c_duration}: the configured run and runtime durations, µs. */
    public long cDurationUs() {
      return events.stream().filter(e -> e.kind() != Kind.TIMER).mapToLong(TimedEvent::us).sum();
    }

    /** {@code c_period}: the configured timer periods, µs. */
    public long cPeriodUs() {
      return events.stream().filter(e -> e.kind() == Kind.TIMER).mapToLong(TimedEvent::us).sum();
    }
  }

  /** The events that enter a log row. */
  public enum Kind {
    RUN,
    RUNTIME,
    TIMER
  }

  /**
   * A run or runtime event (its duration) or a timer event (its period), µs.
   *
   * @param kind which
   * @param us duration or period as configured
   */
  public record TimedEvent(Kind kind, long us) {}
}
