package dev.schedlab.engine.plugin;

import java.util.Locale;
import java.util.function.Consumer;

/**
 * The wall-clock budget of one plugin call ({@code plugin.hook_budget}). The simulation is
 * single-threaded and deterministic, so the budget cannot live in it: this daemon thread watches
 * the {@link HookCalls} the simulation thread writes around each plugin call, and when one call has
 * been running for longer than the budget it hands an {@link Overrun} (plugin, hook, simulated
 * time) to the runner's action, which stops the run (the CLI reports it and exits; a matrix fails
 * that cell alone). It only reads; nothing it sees or measures reaches the model, its results or
 * its digest. This is the one class of the plugin package that reads the wall clock.
 */
public final class HookBudget implements AutoCloseable {
  /**
   * A plugin call that did not return within its budget.
   *
   * @param plugin the plugin's id
   * @param hook the hook or callback it was in
   * @param simNs simulated time when it was called
   * @param budgetNs the budget, wall-clock ns
   */
  public record Overrun(String plugin, String hook, long simNs, long budgetNs) {
    /** One line for the user. */
    public String message() {
      return String.format(
          Locale.ROOT,
          "plugin %s did not return from hook %s within its"
              + " wall-clock budget of %.3f s (plugin.hook_budget) at simulated time %d ns; the run"
              + " was stopped",
          plugin,
          hook,
          budgetNs / 1e9,
          simNs);
    }
  }

  private final Thread thread;
  private volatile boolean closed;

  private HookBudget(PluginSupervisor s, long budgetNs, Consumer<Overrun> action) {
    long pollMs = Math.max(1, Math.min(250, budgetNs / 8_000_000));
    thread =
        new Thread(() -> watch(s.calls(), s, budgetNs, pollMs, action), "schedlab-hook-budget");
    thread.setDaemon(true);
  }

  /** Starts watching the plugin calls of {@code s}; close it when the run ends. */
  public static HookBudget start(PluginSupervisor s, long budgetNs, Consumer<Overrun> action) {
    HookBudget b = new HookBudget(s, budgetNs, action);
    b.thread.start();
    return b;
  }

  private void watch(
      HookCalls calls, PluginSupervisor s, long budgetNs, long pollMs, Consumer<Overrun> action) {
    long seenEntries = -1;
    long since = 0;
    while (!closed) {
      int depth = calls.depthSeen();
      long entries = calls.entriesSeen();
      long now = System.nanoTime();
      if (depth == 0 || entries != seenEntries) {
        seenEntries = depth == 0 ? -1 : entries;
        since = now;
      } else if (now - since >= budgetNs) {
        if (!closed) {
          action.accept(
              new Overrun(
                  calls.slotAt(depth - 1).id(), calls.hookAt(depth - 1), s.now(), budgetNs));
        }
        return;
      }
      try {
        Thread.sleep(pollMs);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Stops watching. */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }
}
