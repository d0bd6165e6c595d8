package dev.schedlab.host.check;

import dev.schedlab.host.HostException;
import dev.schedlab.host.HostFiles;
import dev.schedlab.host.ModelRunner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code stress-ng --cpu N+1} on N CPUs: one CPU-bound task more than CPUs, which only the load
 * balancer moves ({@code sched_balance_rq()}: the pair's CPU is overloaded, the other fully busy,
 * and a task of the pair may move once a balance attempt has failed, {@code nr_balance_failed}).
 * Its figures: the hogs' migrations per second and how unevenly they share the CPUs, the most
 * served hog's CPU time over the least served one's (1 when the balancer rotates them evenly, 2
 * when it never moves one). Real: the workers' {@code /proc/PID/schedstat} run time and {@code
 * /proc/PID/sched} {@code se.nr_migrations}; model: the same from its {@code sched_switch} events.
 * Both count from {@link RunningWindow#SETTLE_S} s after the start, past the fork placement.
 */
final class HogsCheck implements Check {
  private static final String COMM = "stress-ng-cpu";

  private final int hogs;

  HogsCheck(int nrCpus) {
    this.hogs = nrCpus + 1;
  }

  @Override
  public String name() {
    return "stress-ng --cpu " + hogs + " (one hog more than CPUs)";
  }

  @Override
  public List<String> programs() {
    return List.of("stress-ng");
  }

  @Override
  public String installHint() {
    return "apt install stress-ng";
  }

  @Override
  public boolean needsRoot() {
    return false;
  }

  @Override
  public List<Figure> figures() {
    return List.of(
        new Figure("migrations/s", "1/s", new Tolerance(2, 1)),
        new Figure("CPU time, most / least served hog", "ratio", Tolerance.factor(1.25)));
  }

  @Override
  public Map<String, Double> real(Env env) throws HostException {
    List<String> argv =
        List.of(
            "stress-ng",
            "--cpu",
            Integer.toString(hogs),
            "--timeout",
            RunningWindow.runSeconds(env.seconds()) + "s");
    HostFiles proc = new HostFiles(Path.of("/"));
    RunningWindow.Samples<Map<Long, long[]>> w =
        RunningWindow.measure(argv, env.seconds(), p -> sample(p, proc));
    List<long[]> deltas = new ArrayList<>();
    for (Map.Entry<Long, long[]> e : w.after().entrySet()) {
      long[] b = w.before().get(e.getKey());
      if (b != null) {
        deltas.add(new long[] {e.getValue()[0] - b[0], e.getValue()[1] - b[1]});
      }
    }
    if (deltas.size() != hogs) {
      throw new HostException(
          "stress-ng --cpu " + hogs + ": " + deltas.size() + " workers ran the whole window");
    }
    return figures(deltas, w.seconds());
  }

  /**
   * Per CPU worker among {@code p}'s children ({@code comm} {@value #COMM}), by pid: ns on a CPU
   * ({@code schedstat}'s first field) and {@code se.nr_migrations}.
   */
  private Map<Long, long[]> sample(Process p, HostFiles proc) throws HostException {
    Map<Long, long[]> s = new HashMap<>();
    for (ProcessHandle c : p.children().toList()) {
      long pid = c.pid();
      if (!proc.text("/proc/" + pid + "/comm").orElse("").equals(COMM)) {
        continue;
      }
      String stat = proc.text("/proc/" + pid + "/schedstat").orElse("");
      String sched = proc.text("/proc/" + pid + "/sched").orElse("");
      s.put(
          pid,
          new long[] {firstField(stat, pid), RealOutputs.schedField(sched, "se.nr_migrations")});
    }
    if (s.size() != hogs) {
      throw new HostException(
          "stress-ng --cpu " + hogs + ": found " + s.size() + " " + COMM + " workers");
    }
    return s;
  }

  private static long firstField(String schedstat, long pid) throws HostException {
    String[] f = schedstat.trim().split("\\s+", -1);
    try {
      return Long.parseLong(f[0]);
    } catch (NumberFormatException e) {
      throw new HostException(
          "/proc/" + pid + "/schedstat: expected ns on a CPU, got '" + schedstat + "'", e);
    }
  }

  @Override
  public Map<String, Double> model(ModelRunner model, Env env) throws HostException {
    long from = RunningWindow.SETTLE_S * 1_000_000_000L;
    long end = from + env.seconds() * 1_000_000_000L;
    TaskTimes times = new TaskTimes(from);
    model.run(
        "check-hogs",
        List.<String[]>of(new String[] {"stress-ng", "--cpu " + hogs}),
        end,
        1,
        List.of(),
        times);
    List<long[]> deltas = new ArrayList<>();
    for (TaskTimes.Task t : times.tasks(end).values()) {
      if (t.comm.startsWith(COMM)) {
        deltas.add(new long[] {t.runNs, t.migrations});
      }
    }
    if (deltas.size() != hogs) {
      throw new HostException("the model's stress-ng ran " + deltas.size() + " CPU workers");
    }
    return figures(deltas, env.seconds());
  }

  private static Map<String, Double> figures(List<long[]> deltas, double secs) {
    long most = 0;
    long least = Long.MAX_VALUE;
    long migrations = 0;
    for (long[] d : deltas) {
      most = Math.max(most, d[0]);
      least = Math.min(least, d[0]);
      migrations += d[1];
    }
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("migrations/s", migrations / secs);
    m.put("CPU time, most / least served hog", least > 0 ? (double) most / least : Double.NaN);
    return m;
  }
}
