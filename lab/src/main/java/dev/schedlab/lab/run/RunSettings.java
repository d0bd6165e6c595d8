package dev.schedlab.lab.run;

import dev.schedlab.engine.RunOptions;
import dev.schedlab.engine.plugin.PluginSupervisor;
import java.util.function.Consumer;

/**
 * How a run treats its plugins (docs/plugin-safety.md): the lab's form of the engine's {@link
 * RunOptions}, in the command line's terms.
 *
 * @param failOnPluginError fail the run when a plugin misbehaves ({@code --on-plugin-error fail})
 *     instead of ejecting it and going on
 * @param check add the costly invariant checks ({@code --check})
 * @param onOverrun called with the report when a plugin call exceeds its wall-clock budget ({@code
 *     plugin.hook_budget}), on the budget's own thread while the simulation thread is stuck in the
 *     plugin; null: no budget is enforced
 */
public record RunSettings(boolean failOnPluginError, boolean check, Consumer<String> onOverrun) {
  RunOptions options() {
    return new RunOptions(
        failOnPluginError ? PluginSupervisor.OnError.FAIL : PluginSupervisor.OnError.EJECT,
        check,
        onOverrun == null ? null : overrun -> onOverrun.accept(overrun.message()));
  }
}
