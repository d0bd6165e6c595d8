package dev.schedlab.engine;

import dev.schedlab.engine.plugin.HookBudget;
import dev.schedlab.engine.plugin.PluginSupervisor;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * How a run treats its plugins (docs/plugin-safety.md).
 *
 * @param onPluginError eject a misbehaving plugin and go on (the default), or fail the run
 * @param check add the costly invariant checks ({@code --check})
 * @param onOverrun what to do when a plugin call exceeds its wall-clock budget ({@code
 *     plugin.hook_budget}); it runs on the budget's own thread while the simulation thread is stuck
 *     in the plugin. Null: no budget is enforced.
 */
public record RunOptions(
    PluginSupervisor.OnError onPluginError,
    boolean check,
    @Nullable Consumer<HookBudget.Overrun> onOverrun) {
  /** Eject, no costly checks, no wall-clock budget. */
  public static final RunOptions DEFAULT =
      new RunOptions(PluginSupervisor.OnError.EJECT, false, null);

  /** These options with {@code action} on a budget overrun. */
  public RunOptions withOverrunAction(Consumer<HookBudget.Overrun> action) {
    return new RunOptions(onPluginError, check, action);
  }
}
