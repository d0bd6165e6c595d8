/**
 * The lab's entry point for the command line: open the plugins ({@link Plugins}), run a scenario
 * ({@link Runs}) with its safety settings ({@link RunSettings}) and read the outcome ({@link
 * RunOutcome}); {@link PluginLines} reads {@code --plugin} lines and {@link Failures} sorts a
 * failed run's exception. The {@code cli} module uses the lab through these classes and the lab's
 * other packages, never the engine's types (docs/architecture.md, "Rules the structure keeps").
 */
package dev.schedlab.lab.run;
