package dev.schedlab.host.check;

import dev.schedlab.host.Commands;
import dev.schedlab.host.HostException;
import dev.schedlab.host.ModelRunner;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * hackbench (processes over sockets) at 1, 2 and 4 groups: the time of one group, and how the time
 * grows with the group count (the ratios, which do not depend on the per-message costs). A run's
 * time depends on how the senders and receivers happen to interleave (how many messages a receiver
 * finds per wakeup), in the kernel from run to run and in the model from seed to seed, so each time
 * is the median of {@link #REAL_RUNS} real runs and of the model's seeds 1 to {@link
 * Check#MODEL_SEEDS}.
 */
final class HackbenchCheck implements Check {
  private static final int[] GROUPS = {1, 2, 4};

  static final int REAL_RUNS = 3;

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
      double[] runs = new double[REAL_RUNS];
      for (int r = 0; r < REAL_RUNS; r++) {
        Commands.Output o =
            Commands.run(
                List.of(
                    "hackbench",
                    "-g",
                    Integer.toString(GROUPS[i]),
                    "-l",
                    Long.toString(loops(env))),
                600);
        if (o.exit() != 0) {
          throw new HostException(
              "hackbench failed (exit " + o.exit() + "): " + o.stderr().strip());
        }
        runs[r] = RealOutputs.hackbench(o.stdout());
      }
      t[i] = median(runs);
    }
    return figures(t);
  }

  @Override
  public Map<String, Double> model(ModelRunner model, Env env) throws HostException {
    double[] t = new double[GROUPS.length];
    for (int i = 0; i < GROUPS.length; i++) {
      double[] seeds = new double[MODEL_SEEDS];
      for (int seed = 1; seed <= MODEL_SEEDS; seed++) {
        seeds[seed - 1] = time(model, GROUPS[i], loops(env), seed);
      }
      t[i] = median(seeds);
    }
    return figures(t);
  }

  /**
   * The model's hackbench time for {@code groups} groups of {@code loops} loops at {@code seed}.
   */
  static double time(ModelRunner model, int groups, long loops, long seed) throws HostException {
    ModelRunner.Outcome o =
        model.run(
            "check-hackbench",
            List.<String[]>of(new String[] {"hackbench", "-g " + groups + " -l " + loops}),
            600_000_000_000L,
            seed,
            List.of());
    return o.report("hackbench", "time_s");
  }

  static double median(double[] v) {
    double[] s = v.clone();
    java.util.Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static Map<String, Double> figures(double[] t) {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("time g=1", t[0]);
    m.put("time g=2 / g=1", t[1] / t[0]);
    m.put("time g=4 / g=1", t[2] / t[0]);
    return m;
  }
}
