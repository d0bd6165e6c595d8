package dev.schedlab.engine.plugin;

/**
 * One plugin taken out of a run, as sched_ext's error exit records it: who, where, when, why, and
 * the runqueues as they were at that moment.
 *
 * @param plugin the plugin's id
 * @param hook the hook point or class callback involved ({@code "H1 pickOverride"}, {@code "class
 *     ext.pickNext"}, {@code "watchdog"})
 * @param simNs simulated time of the ejection, ns
 * @param reason what went wrong, in one line
 * @param runqueues a dump of every CPU's runqueue just before the ejection, one line per CPU
 */
public record PluginEjection(
    String plugin, String hook, long simNs, String reason, String runqueues) {
  /** A one-line summary: plugin, hook, simulated time and reason. */
  public String summary() {
    return "plugin "
        + plugin
        + " ejected at simulated time "
        + simNs
        + " ns in "
        + hook
        + ": "
        + reason;
  }
}
