package dev.schedlab.host.check;

import dev.schedlab.host.Commands;
import dev.schedlab.host.HostException;
import dev.schedlab.host.ModelRunner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * cyclictest, one thread per CPU at 1 ms, as SCHED_OTHER (the 50 us timer slack applies) or
 * SCHED_FIFO 95, quiet or beside a load: the wakeup latency's median, 99th percentile and maximum.
 * The threads start at a random phase to the tick, which moves the tail (a SCHED_OTHER wakeup that
 * does not preempt the hog waits for a tick); a real run is one phase, so the model's histograms of
 * seeds 1 to {@value Check#MODEL_SEEDS} are pooled.
 */
final class CyclictestCheck implements Check {
  private static final int HIST_US = 20_000;
  private final boolean fifo;
  private final Background background;

  CyclictestCheck(boolean fifo, Background background) {
    this.fifo = fifo;
    this.background = background;
  }

  @Override
  public String name() {
    return "cyclictest " + (fifo ? "SCHED_FIFO" : "SCHED_OTHER") + " " + background.label();
  }

  @Override
  public List<String> programs() {
    return background == Background.QUIET
        ? List.of("cyclictest")
        : List.of("cyclictest", "stress-ng");
  }

  @Override
  public String installHint() {
    return "apt install rt-tests stress-ng";
  }

  @Override
  public boolean needsRoot() {
    return fifo;
  }

  @Override
  public List<Figure> figures() {
    return List.of(
        new Figure("p50", "us", Tolerance.factor(1.5)),
        new Figure("p99", "us", Tolerance.factor(2)),
        new Figure("max", "us", Tolerance.factor(3)));
  }

  /** The arguments both runs share (the model takes the duration from the scenario). */
  private String args(Env env) {
    return (env.root() ? "-m " : "") + "-i 1000 -t -q -h " + HIST_US + (fifo ? " -p 95" : "");
  }

  @Override
  public Map<String, Double> real(Env env) throws HostException {
    List<String> argv = new ArrayList<>(List.of("cyclictest"));
    argv.addAll(List.of(args(env).split(" ")));
    argv.addAll(List.of("-D", env.seconds() + "s"));
    Process hog = background.start();
    try {
      Commands.Output o = Commands.run(argv, env.seconds() + 60L);
      if (o.exit() != 0) {
        throw new HostException("cyclictest failed (exit " + o.exit() + "): " + o.stderr().strip());
      }
      return figures(RealOutputs.cyclictest(o.stdout()));
    } finally {
      Commands.stop(hog);
    }
  }

  @Override
  public Map<String, Double> model(ModelRunner model, Env env) throws HostException {
    List<String[]> tools = new ArrayList<>();
    tools.add(new String[] {"cyclictest", args(env)});
    tools.addAll(background.modelTools(env));
    List<Latencies> runs = new ArrayList<>();
    for (int seed = 1; seed <= MODEL_SEEDS; seed++) {
      ModelRunner.Outcome o =
          model.run("check-cyclictest", tools, env.seconds() * 1_000_000_000L, seed, List.of());
      runs.add(modelLatencies(o));
    }
    return figures(Latencies.pooled(runs));
  }

  /** The model's cyclictest histogram, summed over the threads like the real one. */
  static Latencies modelLatencies(ModelRunner.Outcome o) throws HostException {
    Object threads =
        ((Map<?, ?>)
                Objects.requireNonNull(
                    ((Map<?, ?>) Objects.requireNonNull(o.reports().get("cyclictest")))
                        .get("report")))
            .get("threads");
    List<Long> counts = new ArrayList<>();
    long overflows = 0;
    if (threads instanceof List<?> list) {
      for (Object t : list) {
        Map<?, ?> thread = (Map<?, ?>) t;
        List<?> h = (List<?>) thread.get("histogram");
        for (int i = 0; h != null && i < h.size(); i++) {
          while (counts.size() <= i) {
            counts.add(0L);
          }
          counts.set(i, counts.get(i) + ((Number) h.get(i)).longValue());
        }
        Object of = thread.get("overflows");
        overflows += of instanceof Number n ? n.longValue() : 0;
      }
    }
    if (counts.isEmpty()) {
      throw new HostException("the model's cyclictest report has no histogram");
    }
    counts.add(overflows);
    return new Latencies(counts, Math.round(o.report("cyclictest", "max")));
  }

  private static Map<String, Double> figures(Latencies l) {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("p50", l.percentile(0.50));
    m.put("p99", l.percentile(0.99));
    m.put("max", (double) l.maxUs());
    return m;
  }
}
