package dev.schedlab.host.check;

import dev.schedlab.host.HostException;
import dev.schedlab.host.HostFiles;
import dev.schedlab.host.ModelRunner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Interrupts and softirqs per second, summed over the CPUs, while a quiet machine runs cyclictest:
 * /proc/interrupts' LOC, RES, CAL, TLB and /proc/softirqs' TIMER, SCHED, RCU against the model's
 * counts of the same. The rest of the system (kworkers, daemons) runs on the host; the model has it
 * only as the machine file's measured background ({@code bg.*}: timer-wheel expiries, kworker
 * bursts, RCU callbacks).
 *
 * <p>Two command lines: one SCHED_FIFO thread per CPU at 1 ms (SCHED_OTHER without root), and the
 * command line of the ILB IPI report (lore 20231005161727.1855004-1-joel@joelfernandes.org: {@code
 * cyclictest -i 100 -d 100 --latency=1000 -t -m}, SCHED_OTHER threads at 100, 200, ... us), whose
 * CAL row counts the nohz idle balancer's kicks on this kernel. The model's rates are the mean of
 * its seeds 1 to {@value Check#MODEL_SEEDS}, one start phase of the threads each.
 */
final class InterruptsCheck implements Check {
  /** One thread per CPU at 1 ms, SCHED_FIFO 95 with root. */
  static final InterruptsCheck PERIODIC_1MS =
      new InterruptsCheck("-i 1000 -t", "-m -i 1000 -t -q -p 95", "-i 1000 -t -q");

  /**
   * The ILB report's command line. Without root cyclictest cannot write /dev/cpu_dma_latency or
   * lock its memory, so those two options are left out.
   */
  static final InterruptsCheck ILB_REPORT =
      new InterruptsCheck(
          "-i 100 -d 100 --latency=1000 -t -m",
          "-i 100 -d 100 --latency=1000 -t -m -q",
          "-i 100 -d 100 -t -q");

  private final String shown;
  private final String rootArgs;
  private final String userArgs;

  private InterruptsCheck(String shown, String rootArgs, String userArgs) {
    this.shown = shown;
    this.rootArgs = rootArgs;
    this.userArgs = userArgs;
  }

  /** Figure, its /proc row, and the model's counter ("" when the model has none). */
  private static final String[][] ROWS = {
    {"LOC/s", "LOC", "irq.taken.local_timer"},
    {"RES/s", "RES", "irq.taken.resched"},
    {"CAL/s", "CAL", "irq.taken.call_function"},
    {"TLB/s", "TLB", ""},
    {"softirq TIMER/s", "TIMER", "softirq.timer"},
    {"softirq SCHED/s", "SCHED", "softirq.sched"},
    {"softirq RCU/s", "RCU", "softirq.rcu"},
  };

  @Override
  public String name() {
    return "interrupts during cyclictest " + shown;
  }

  @Override
  public List<String> programs() {
    return List.of("cyclictest");
  }

  @Override
  public String installHint() {
    return "apt install rt-tests";
  }

  @Override
  public boolean needsRoot() {
    return false;
  }

  @Override
  public List<Figure> figures() {
    List<Figure> f = new ArrayList<>();
    for (String[] r : ROWS) {
      f.add(new Figure(r[0], "1/s", new Tolerance(1.5, 10)));
    }
    return f;
  }

  private String args(Env env) {
    return env.root() ? rootArgs : userArgs;
  }

  /**
   * Counts while cyclictest runs ({@link RunningWindow}): the model's threads exist from its start
   * and never exit, while the real command's start and exit queue RCU callbacks and take grace
   * periods back to back (traced on Linux 6.18: 36 of a 5 s run's 63 RCU softirqs).
   */
  @Override
  public Map<String, Double> real(Env env) throws HostException {
    HostFiles proc = new HostFiles(Path.of("/"));
    List<String> argv = new ArrayList<>(List.of("cyclictest"));
    argv.addAll(List.of(args(env).split(" ")));
    argv.addAll(List.of("-D", RunningWindow.runSeconds(env.seconds()) + "s"));
    RunningWindow.Samples<Map<String, Long>> w =
        RunningWindow.measure(argv, env.seconds(), p -> counts(proc));
    Map<String, Double> m = new LinkedHashMap<>();
    for (String[] r : ROWS) {
      long delta = w.after().getOrDefault(r[1], 0L) - w.before().getOrDefault(r[1], 0L);
      m.put(r[0], delta / w.seconds());
    }
    return m;
  }

  private static Map<String, Long> counts(HostFiles proc) throws HostException {
    String irqs =
        proc.text("/proc/interrupts")
            .orElseThrow(() -> new HostException("/proc/interrupts is unreadable"));
    Map<String, Long> m = new LinkedHashMap<>(RealOutputs.procCounts(irqs));
    proc.text("/proc/softirqs").ifPresent(t -> m.putAll(RealOutputs.procCounts(t)));
    return m;
  }

  @Override
  public Map<String, Double> model(ModelRunner model, Env env) throws HostException {
    // The threads' start phase to the tick decides whether the tick lands in their wakeups (and
    // raises SCHED_SOFTIRQ): a real run is one phase, the model's rates are the mean of seeds 1-5.
    Map<String, Double> m = new LinkedHashMap<>();
    for (String[] r : ROWS) {
      m.put(r[0], 0.0);
    }
    for (int seed = 1; seed <= MODEL_SEEDS; seed++) {
      ModelRunner.Outcome o =
          model.run(
              "check-interrupts",
              List.<String[]>of(new String[] {"cyclictest", args(env)}),
              env.seconds() * 1_000_000_000L,
              seed,
              List.of());
      for (String[] r : ROWS) {
        double rate = r[2].isEmpty() ? 0.0 : o.metric(r[2]) / env.seconds();
        m.merge(r[0], rate / MODEL_SEEDS, Double::sum);
      }
    }
    return m;
  }
}
