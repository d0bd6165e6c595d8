package dev.schedlab.host.check;

import dev.schedlab.host.Commands;
import dev.schedlab.host.HostException;
import dev.schedlab.host.HostFiles;
import dev.schedlab.host.ModelRunner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code stress-ng --cpu N+1} on N CPUs: one CPU-bound task more than CPUs, which only the load
 * balancer moves ({@code sched_balance_rq()}: the pair's CPU is overloaded, the other fully busy,
 * and a task of the pair may move once a balance attempt has failed, {@code nr_balance_failed}).
 * Its figures: the hogs' migrations per second and how unevenly they share the CPUs, the most
 * served hog's CPU time over the least served one's (1 when the balancer rotates them evenly, 2
 * when it never moves one). Real: the workers' {@code /proc/PID/schedstat} run time and {@code
 * /proc/PID/sched} {@code se.nr_migrations}; model: the same from its {@code sched_switch} events.
 * Both count from {@value #SETTLE_S} s after the start, past the fork placement.
 */
final class HogsCheck implements Check {
  private static final int SETTLE_S = 1;
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
            (env.seconds() + 2 * SETTLE_S) + "s");
    Process p = Commands.background(argv);
    HostFiles proc = new HostFiles(Path.of("/"));
    try {
      Thread.sleep(SETTLE_S * 1000L);
      List<Long> workers = workers(p, proc);
      long[][] before = sample(workers, proc);
      long start = System.nanoTime();
      Thread.sleep(env.seconds() * 1000L);
      long[][] after = sample(workers, proc);
      double secs = (System.nanoTime() - start) / 1e9;
      if (!p.waitFor(SETTLE_S + 60L, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new HostException(
            "stress-ng did not end cleanly: run `" + String.join(" ", argv) + "` to see why");
      }
      List<long[]> deltas = new ArrayList<>();
      for (int i = 0; i < workers.size(); i++) {
        deltas.add(new long[] {after[i][0] - before[i][0], after[i][1] - before[i][1]});
      }
      return figures(deltas, secs);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HostException("stress-ng: interrupted", e);
    } finally {
      Commands.stop(p);
    }
  }

  /** The CPU workers among {@code p}'s children, by pid. */
  private List<Long> workers(Process p, HostFiles proc) throws HostException {
    List<Long> w = new ArrayList<>();
    p.children()
        .forEach(
            c -> {
              if (proc.text("/proc/" + c.pid() + "/comm").orElse("").equals(COMM)) {
                w.add(c.pid());
              }
            });
    if (w.size() != hogs) {
      throw new HostException(
          "stress-ng --cpu " + hogs + ": found " + w.size() + " " + COMM + " workers after 1 s");
    }
    return w;
  }

  /** Per worker: ns on a CPU ({@code schedstat}'s first field) and {@code se.nr_migrations}. */
  private static long[][] sample(List<Long> workers, HostFiles proc) throws HostException {
    long[][] s = new long[workers.size()][];
    for (int i = 0; i < s.length; i++) {
      long pid = workers.get(i);
      String stat = proc.text("/proc/" + pid + "/schedstat").orElse("");
      String sched = proc.text("/proc/" + pid + "/sched").orElse("");
      s[i] = new long[] {firstField(stat, pid), RealOutputs.schedField(sched, "se.nr_migrations")};
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
    long from = SETTLE_S * 1_000_000_000L;
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
