package dev.schedlab.lab.run;

import dev.schedlab.engine.SimulationException;
import dev.schedlab.engine.plugin.PluginException;

/** Which exceptions of a run are bad input and which a failed run, for exit codes and messages. */
public final class Failures {
  private Failures() {}

  /** A plugin that is unknown, failed to load, or conflicts with another: input the user fixes. */
  public static boolean isPluginError(Exception ex) {
    return ex instanceof PluginException;
  }

  /** A run that failed: a plugin under {@code --on-plugin-error fail}, or a broken invariant. */
  public static boolean isRunFailure(Exception ex) {
    return ex instanceof SimulationException;
  }
}
