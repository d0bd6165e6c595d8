package dev.schedlab.host.check;

import dev.schedlab.host.Commands;
import dev.schedlab.host.HostException;
import dev.schedlab.host.ModelRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * {@code schedlab check-host}: the validation suite. Each workload runs with the real tools here
 * and as the same tools in the model on the calibrated machine file; every figure is compared with
 * the tolerance written beside it. A missing tool skips its rows with the install hint; a missing
 * privilege marks them; a workload that fails on either side marks its rows and the suite goes on.
 * The host's figures reach the listener as soon as they are measured, so nothing measured is lost
 * when a run is interrupted.
 */
public final class CheckHost {
  /** Hears of each step: the host's figures as soon as measured, then each workload's rows. */
  public interface Listener {
    /** Step {@code index} of {@code total} begins (each workload: its real run, its model run). */
    void starting(int index, int total, String what);

    /** {@code check}'s host figures (empty when it could not run, with {@code why}). */
    default void measured(Check check, Map<String, Double> real, @Nullable String why) {}

    /** {@code rows} are complete. */
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
    s.add(new HogsCheck(env.nrCpus()));
    s.add(InterruptsCheck.PERIODIC_1MS);
    s.add(InterruptsCheck.ILB_REPORT);
    s.add(new RtAppCheck());
    return s;
  }

  /**
   * Runs {@code suite}: every workload on the host first, while nothing else of schedlab runs (the
   * model's runs would compete for the CPUs, and the JVM's compiler threads run on after them),
   * then every workload in the model. Returns the rows of all workloads, in order.
   */
  public static List<Row> run(List<Check> suite, ModelRunner model, Env env, Listener listener) {
    return run(suite, model, env, null, listener);
  }

  /**
   * As {@link #run(List, ModelRunner, Env, Listener)}, the host's figures taken from {@code
   * earlier} (workload name to figure to value, an earlier run's rows) instead of measured again
   * when it is not null: the same measurements against another machine file.
   */
  public static List<Row> run(
      List<Check> suite,
      ModelRunner model,
      Env env,
      @Nullable Map<String, Map<String, Double>> earlier,
      Listener listener) {
    int total = 2 * suite.size();
    List<Map<String, Double>> real = new ArrayList<>();
    List<String> why = new ArrayList<>();
    for (int i = 0; i < suite.size(); i++) {
      Check c = suite.get(i);
      listener.starting(i, total, "host: " + c.name());
      String reason =
          earlier != null
              ? (earlier.containsKey(c.name()) ? null : "not in the earlier run")
              : unavailable(c, env);
      Map<String, Double> figures = Map.of();
      if (reason == null && earlier != null) {
        figures = Objects.requireNonNull(earlier.get(c.name())); // contained: reason is null
      } else if (reason == null) {
        try {
          figures = c.real(env);
        } catch (HostException e) {
          reason = "real run failed: " + e.getMessage();
        }
      }
      real.add(figures);
      why.add(reason);
      listener.measured(c, figures, reason);
    }
    List<Row> all = new ArrayList<>();
    for (int i = 0; i < suite.size(); i++) {
      Check c = suite.get(i);
      listener.starting(suite.size() + i, total, "model: " + c.name());
      List<Row> rows =
          why.get(i) != null
              ? rows(c, real.get(i), Map.of(), why.get(i))
              : modelled(c, real.get(i), model, env);
      all.addAll(rows);
      listener.rows(rows);
    }
    return all;
  }

  /** The rows of a workload measured on the host whose model run has not come (interrupted). */
  public static List<Row> pending(Check c, Map<String, Double> real, @Nullable String why) {
    return rows(c, real, Map.of(), why != null ? why : "interrupted before the model ran");
  }

  /** Why {@code c} cannot run here, or null. */
  private static @Nullable String unavailable(Check c, Env env) {
    List<String> missing = c.programs().stream().filter(p -> Commands.which(p).isEmpty()).toList();
    if (!missing.isEmpty()) {
      return "skipped: " + String.join(", ", missing) + " not found (" + c.installHint() + ")";
    }
    if (c.needsRoot() && !env.root()) {
      return "needs root (real-time priority)";
    }
    return null;
  }

  private static List<Row> modelled(Check c, Map<String, Double> real, ModelRunner model, Env env) {
    try {
      return rows(c, real, c.model(model, env), null);
    } catch (HostException e) {
      return rows(c, real, Map.of(), "model failed: " + e.getMessage());
    }
  }

  private static List<Row> rows(
      Check c, Map<String, Double> real, Map<String, Double> sim, @Nullable String why) {
    List<Row> out = new ArrayList<>();
    for (Figure f : c.figures()) {
      double r = real.getOrDefault(f.name(), Double.NaN);
      double s = sim.getOrDefault(f.name(), Double.NaN);
      String verdict =
          why != null
              ? why
              : Double.isNaN(r)
                  ? "not measured on the host"
                  : f.tolerance().accepts(r, s) ? Row.OK : Row.OUTSIDE;
      out.add(new Row(c.name(), f.name(), f.unit(), r, s, f.tolerance(), verdict));
    }
    return out;
  }
}
