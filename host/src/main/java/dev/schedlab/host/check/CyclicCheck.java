package dev.schedlab.host.check;

import dev.schedlab.host.Commands;
import dev.schedlab.host.HostException;
import dev.schedlab.host.ModelRunner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * stress-ng {@code --cyclic 1} as SCHED_DEADLINE (100 us sleeps, its first 10000 samples), quiet or
 * beside a load: median, 99th percentile and maximum of how late each sleep returns.
 */
final class CyclicCheck implements Check {
  private static final String ARGS = "--cyclic 1 --cyclic-policy deadline";
  private final Background background;

  CyclicCheck(Background background) {
    this.background = background;
  }

  @Override
  public String name() {
    return "stress-ng --cyclic (SCHED_DEADLINE) " + background.label();
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
    return true;
  }

  @Override
  public List<Figure> figures() {
    return List.of(
        new Figure("p50", "us", Tolerance.factor(1.5)),
        new Figure("p99", "us", Tolerance.factor(2)),
        new Figure("max", "us", Tolerance.factor(3)));
  }

  @Override
  public Map<String, Double> real(Env env) throws HostException {
    List<String> argv = new ArrayList<>(List.of("stress-ng"));
    argv.addAll(List.of(ARGS.split(" ")));
    argv.addAll(List.of("-t", env.seconds() + "s"));
    Process hog = background.start();
    try {
      Commands.Output o = Commands.run(argv, env.seconds() + 60L);
      if (o.exit() != 0) {
        throw new HostException(
            "stress-ng --cyclic failed (exit "
                + o.exit()
                + "): "
                + (o.stderr() + o.stdout()).strip());
      }
      Map<String, Double> ns = RealOutputs.stressCyclic(o.stdout() + "\n" + o.stderr());
      Double p50 = ns.get("50.00");
      Double p99 = ns.get("99.00");
      Double max = ns.get("max");
      if (p50 == null || p99 == null || max == null) {
        throw new HostException("stress-ng --cyclic printed no 50.00/99.00/max latency: " + ns);
      }
      return figures(p50, p99, max);
    } finally {
      Commands.stop(hog);
    }
  }

  @Override
  public Map<String, Double> model(ModelRunner model, Env env) throws HostException {
    List<String[]> tools = new ArrayList<>();
    tools.add(env.stressNgTool(ARGS));
    tools.addAll(background.modelTools(env));
    ModelRunner.Outcome o =
        model.run("check-cyclic", tools, env.seconds() * 1_000_000_000L, 1, List.of());
    return figures(
        o.report("stress-ng", "cyclic", "percentiles", "50.00"),
        o.report("stress-ng", "cyclic", "percentiles", "99.00"),
        o.report("stress-ng", "cyclic", "max"));
  }

  private static Map<String, Double> figures(double p50, double p99, double max) {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("p50", p50 / 1000);
    m.put("p99", p99 / 1000);
    m.put("max", max / 1000);
    return m;
  }
}
