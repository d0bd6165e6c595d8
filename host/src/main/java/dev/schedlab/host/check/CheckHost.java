package dev.schedlab.host.check;

import dev.schedlab.host.Commands;
import dev.schedlab.host.HostException;
import dev.schedlab.host.ModelRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code schedlab check-host}: the validation suite. Each workload runs with the real tools here
 * and as the same tools in the model on the calibrated machine file; every figure is compared
 * with the tolerance written beside it. A missing tool skips its rows with the install hint; a
 * missing privilege marks them; a workload that fails on either side marks its rows and the suite
 * goes on. Rows reach the listener as each workload finishes, so nothing measured is lost.
 */
public final class CheckHost {
  /** Receives each workload's rows as soon as they are measured. */
  public interface Listener {
    void starting(int index, int total, String workload);

    void rows(List<Row> rows);
  }

  private CheckHost() {}

  /** The suite, in the order it runs. */
  public static List<Check> suite(Env env) {
    List<Check> s = new ArrayList<>();
    for (boolean fifo : new boolean[] {false, true}) {
      for (Background b : Background.values()) {
        s.add(new CyclictestCheck(fifo, b));
      }
    }
    s.add(new CyclicCheck(Background.QUIET));
    s.add(new CyclicCheck(Background.MMAP_HOGS));
    s.add(new HackbenchCheck());
    s.add(new PipePairsCheck(1, "below the CPU count"));
    s.add(new PipePairsCheck(2 * env.nrCpus(), "above the CPU count"));
    s.add(new InterruptsCheck());
    return s;
  }

  /** Runs {@code suite}; the rows of all workloads, in order. */
  public static List<Row> run(List<Check> suite, ModelRunner model, Env env, Listener listener) {
    List<Row> all = new ArrayList<>();
    for (int i = 0; i < suite.size(); i++) {
      Check c = suite.get(i);
      listener.starting(i, suite.size(), c.name());
      List<Row> rows = one(c, model, env);
      all.addAll(rows);
      listener.rows(rows);
    }
    return all;
  }

  private static List<Row> one(Check c, ModelRunner model, Env env) {
    List<String> missing = c.programs().stream().filter(p -> Commands.which(p).isEmpty()).toList();
    if (!missing.isEmpty()) {
      return unmeasured(c, "skipped: " + String.join(", ", missing) + " not found ("
          + c.installHint() + ")");
    }
    if (c.needsRoot() && !env.root()) {
      return unmeasured(c, "needs root (real-time priority)");
    }
    Map<String, Double> real;
    try {
      real = c.real(env);
    } catch (HostException e) {
      return unmeasured(c, "real run failed: " + e.getMessage());
    }
    Map<String, Double> sim;
    try {
      sim = c.model(model, env);
    } catch (HostException e) {
      return rows(c, real, Map.of(), "model failed: " + e.getMessage());
    }
    return rows(c, real, sim, null);
  }

  private static List<Row> unmeasured(Check c, String why) {
    return rows(c, Map.of(), Map.of(), why);
  }

  private static List<Row> rows(Check c, Map<String, Double> real, Map<String, Double> sim,
      String why) {
    List<Row> out = new ArrayList<>();
    for (Figure f : c.figures()) {
      double r = real.getOrDefault(f.name(), Double.NaN);
      double s = sim.getOrDefault(f.name(), Double.NaN);
      String verdict = why != null ? why
          : Double.isNaN(r) ? "not measured on the host"
          : f.tolerance().accepts(r, s) ? Row.OK : Row.OUTSIDE;
      out.add(new Row(c.name(), f.name(), f.unit(), r, s, f.tolerance(), verdict));
    }
    return out;
  }
}
