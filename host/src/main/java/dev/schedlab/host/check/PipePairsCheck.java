package dev.schedlab.host.check;

import dev.schedlab.host.Commands;
import dev.schedlab.host.HostException;
import dev.schedlab.host.ModelRunner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code perf bench sched pipe}, N pairs at once (one pair, and twice as many pairs as CPUs): the
 * mean round trip, which placement decides (a pair on one CPU switches; on two it wakes an idle
 * CPU), and the migrations per 10,000 round trips ({@code perf stat -e cpu-migrations}).
 */
final class PipePairsCheck implements Check {
  private final int pairs;
  private final String label;

  PipePairsCheck(int pairs, String label) {
    this.pairs = pairs;
    this.label = label;
  }

  @Override
  public String name() {
    return "perf bench sched pipe x" + pairs + " (" + label + ")";
  }

  @Override
  public List<String> programs() {
    return List.of("perf");
  }

  @Override
  public String installHint() {
    return "apt install linux-perf";
  }

  @Override
  public boolean needsRoot() {
    return false;
  }

  @Override
  public List<Figure> figures() {
    return List.of(
        new Figure("usecs/op", "us", Tolerance.factor(1.5)),
        new Figure("migrations/10k ops", "count", new Tolerance(3, 5)));
  }

  private static long loops(Env env) {
    return env.quick() ? 20_000 : 100_000;
  }

  @Override
  public Map<String, Double> real(Env env) throws HostException {
    String script =
        "for i in $(seq "
            + pairs
            + "); do perf bench sched pipe -l "
            + loops(env)
            + " & done; wait";
    Commands.Output o =
        Commands.run(
            List.of("perf", "stat", "-x", ",", "-e", "cpu-migrations", "--", "sh", "-c", script),
            900);
    List<Double> usecs = RealOutputs.perfUsecsPerOp(o.stdout());
    if (o.exit() != 0 || usecs.size() != pairs) {
      throw new HostException(
          "perf bench sched pipe x"
              + pairs
              + " failed (exit "
              + o.exit()
              + "): "
              + o.stderr().strip());
    }
    double migrations = RealOutputs.perfStat(o.stderr(), "cpu-migrations");
    return figures(usecs, migrations, env);
  }

  @Override
  public Map<String, Double> model(ModelRunner model, Env env) throws HostException {
    List<String[]> tools = new ArrayList<>();
    for (int i = 0; i < pairs; i++) {
      tools.add(new String[] {"perf", "bench sched pipe -l " + loops(env)});
    }
    ModelRunner.Outcome o = model.run("check-pipes", tools, 600_000_000_000L, 1, List.of());
    List<Double> usecs = new ArrayList<>();
    for (int i = 0; i < pairs; i++) {
      usecs.add(o.report(i == 0 ? "perf" : "perf#" + i, "usecs_per_op"));
    }
    return figures(usecs, o.metric("sched.migrations"), env);
  }

  private Map<String, Double> figures(List<Double> usecs, double migrations, Env env) {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("usecs/op", usecs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN));
    m.put("migrations/10k ops", migrations * 10_000 / (pairs * (double) loops(env)));
    return m;
  }
}
