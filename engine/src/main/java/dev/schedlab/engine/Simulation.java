package dev.schedlab.engine;

import dev.schedlab.engine.config.RunConfig;
import dev.schedlab.engine.core.KernelRun;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.params.Param;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.plugin.HookBudget;
import dev.schedlab.engine.plugin.PluginFailure;
import dev.schedlab.engine.plugin.PluginSupervisor;
import java.util.List;

/**
 * The model's entry point: builds a kernel from a {@link RunConfig} (machine, kernel configuration,
 * task programs) and the extensions a plugin host resolved, runs it to the configured duration and
 * returns its result; the trace goes to the given sink.
 */
public final class Simulation {
  private Simulation() {}

  /** As {@link #run(RunConfig, Extensions, TraceSink, RunOptions)} with the default options. */
  public static RunResult run(RunConfig config, Extensions extensions, TraceSink trace)
      throws SimulationException {
    return run(config, extensions, trace, RunOptions.DEFAULT);
  }

  /**
   * Runs {@code config} to its duration. A plugin that misbehaves is ejected and recorded in the
   * result's ejections, or fails the run, as {@code options} say.
   *
   * @throws IllegalArgumentException when the configuration names something the extensions lack
   * @throws SimulationException when a plugin fails (under {@code --on-plugin-error fail}) or a
   *     model invariant breaks
   */
  public static RunResult run(
      RunConfig config, Extensions extensions, TraceSink trace, RunOptions options)
      throws SimulationException {
    PluginSupervisor supervisor = extensions.supervisor();
    supervisor.onError(options.onPluginError());
    supervisor.check(options.check());
    long budgetNs =
        config
            .kernel()
            .params()
            .getOrDefault(Param.PLUGIN_HOOK_BUDGET.key(), Param.PLUGIN_HOOK_BUDGET.defaultValue());
    HookBudget budget =
        options.onOverrun() != null && supervisor.hasPlugins() && budgetNs > 0
            ? HookBudget.start(supervisor, budgetNs, options.onOverrun())
            : null;
    try {
      return simulate(config, extensions, trace);
    } finally {
      if (budget != null) {
        budget.close();
      }
    }
  }

  private static RunResult simulate(RunConfig config, Extensions extensions, TraceSink trace)
      throws SimulationException {
    KernelRun run;
    try {
      run = KernelRun.prepare(config, extensions, trace);
    } catch (PluginFailure f) {
      throw new SimulationException(f.getMessage() + " (while setting up the run)", f);
    }
    long start = System.nanoTime();
    try {
      run.run();
    } catch (PluginFailure f) {
      throw new SimulationException(
          f.getMessage() + " (at simulated time " + run.nowNs() + " ns)", f);
    } catch (RuntimeException | StackOverflowError e) {
      throw new SimulationException(
          "model invariant violated at simulated time " + run.nowNs() + " ns: " + e, e);
    }
    long wall = System.nanoTime() - start;
    List<String> plugins = extensions.plugins().stream().map(p -> p.descriptor().id()).toList();
    return new RunResult(
        Version.current(),
        config.name(),
        config.seed(),
        plugins,
        run.digest(),
        run.events(),
        run.simNs(),
        wall,
        run.metrics(),
        run.rawSamples(),
        extensions.supervisor().ejections());
  }
}
