/**
 * The model's entry point. {@link dev.schedlab.engine.Simulation} builds a kernel from a {@link
 * dev.schedlab.engine.config.RunConfig} (machine, kernel configuration, task programs) and the
 * {@link dev.schedlab.engine.plugin.Extensions} a {@link dev.schedlab.engine.plugin.PluginHost}
 * resolves, runs it, and returns a {@link dev.schedlab.engine.output.RunResult}; the trace goes to
 * a {@link dev.schedlab.engine.output.TraceSink}. These, with the parameter table ({@code params}),
 * are what code outside the engine uses: the kernel paths ({@code core}, {@code sim}, {@code
 * machine}, {@code idle}, {@code preempt}) stay behind them. Scenario files, workload tools,
 * experiments and output files are the lab's ({@code dev.schedlab.lab}).
 */
package dev.schedlab.engine;
