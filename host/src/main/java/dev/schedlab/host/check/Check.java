package dev.schedlab.host.check;

import dev.schedlab.host.HostException;
import dev.schedlab.host.ModelRunner;
import java.util.List;
import java.util.Map;

/**
 * One validation workload: run with the real tools on the host and as the same tools in the model
 * on the machine file, then compared figure by figure. No check sets a parameter.
 */
public interface Check {
  /**
   * The model's seeds 1 to this a check pools or takes the median of: a real run is one start phase
   * of its threads against the tick and one interleaving, the model's figure is over several.
   */
  int MODEL_SEEDS = 5;

  /** The workload as a user would name it. */
  String name();

  /** Programs it needs on the PATH. */
  List<String> programs();

  /** Debian packages that provide them. */
  String installHint();

  /** Whether it needs root (real-time priorities, SCHED_DEADLINE). */
  boolean needsRoot();

  /** Its figures, in table order. */
  List<Figure> figures();

  /** Runs it on the host; figure name to value. */
  Map<String, Double> real(Env env) throws HostException;

  /** Runs it in the model; figure name to value. */
  Map<String, Double> model(ModelRunner model, Env env) throws HostException;
}
