package dev.schedlab.host.check;

import dev.schedlab.host.Commands;
import dev.schedlab.host.HostException;
import dev.schedlab.host.ModelRunner;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * hackbench (processes over sockets) at 1, 2 and 4 groups: the time of one group, and how the time
 * grows with the group count (the ratios, which do not depend on the per-message costs).
 */
final class HackbenchCheck implements Check {
  private static final int[] GROUPS = {1, 2, 4};

  @Override
  public String name() {
    return "hackbench -g 1/2/4";
  }

  @Override
  public List<String> programs() {
    return List.of("hackbench");
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
    return List.of(
        new Figure("time g=1", "s", Tolerance.factor(1.5)),
        new Figure("time g=2 / g=1", "ratio", Tolerance.factor(1.25)),
        new Figure("time g=4 / g=1", "ratio", Tolerance.factor(1.25)));
  }

  private static long loops(Env env) {
    return env.quick() ? 100 : 500;
  }

  @Override
  public Map<String, Double> real(Env env) throws HostException {
    double[] t = new double[GROUPS.length];
    for (int i = 0; i < GROUPS.length; i++) {
      Commands.Output o =
          Commands.run(
              List.of(
                  "hackbench", "-g", Integer.toString(GROUPS[i]), "-l", Long.toString(loops(env))),
              600);
      if (o.exit() != 0) {
        throw new HostException("hackbench failed (exit " + o.exit() + "): " + o.stderr().strip());
      }
      t[i] = RealOutputs.hackbench(o.stdout());
    }
    return figures(t);
  }

  @Override
  public Map<String, Double> model(ModelRunner model, Env env) throws HostException {
    double[] t = new double[GROUPS.length];
    for (int i = 0; i < GROUPS.length; i++) {
      ModelRunner.Outcome o =
          model.run(
              "check-hackbench",
              List.<String[]>of(
                  new String[] {"hackbench", "-g " + GROUPS[i] + " -l " + loops(env)}),
              600_000_000_000L,
              1,
              List.of());
      t[i] = o.report("hackbench", "time_s");
    }
    return figures(t);
  }

  private static Map<String, Double> figures(double[] t) {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("time g=1", t[0]);
    m.put("time g=2 / g=1", t[1] / t[0]);
    m.put("time g=4 / g=1", t[2] / t[0]);
    return m;
  }
}
