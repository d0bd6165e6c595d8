package dev.schedlab.cli;

import dev.schedlab.lab.run.RunSettings;
import java.io.PrintWriter;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --on-plugin-error} and {@code --check}, and what the CLI does when a plugin call exceeds
 * its wall-clock budget: the run cannot be resumed (the simulation thread is stuck in the plugin),
 * so the report goes to stderr, unfinished output is removed, and the process exits at once with
 * {@link Main#RUN_FAILED}. Nothing was written to stdout or {@code --out} yet.
 */
final class SafetyOptions {
  /** The choices of {@code --on-plugin-error}. */
  enum OnError {
    eject,
    fail
  }

  @Option(
      names = "--on-plugin-error",
      paramLabel = "MODE",
      defaultValue = "eject",
      description =
          "What a misbehaving plugin (throws, breaks an invariant, starves a task past"
              + " watchdog.timeout) does: eject (default) takes it out, its tasks fall back to the fair"
              + " class, its hooks revert to mainline and the run goes on (exit code 3); fail stops the"
              + " run (exit code 1). See docs/plugin-safety.md.")
  OnError onError;

  @Option(
      names = "--check",
      description =
          "Also run the costly invariant checks at the plugin boundary (class counts"
              + " after every enqueue and dequeue, lost tasks at every watchdog scan).")
  boolean check;

  /** The run settings; {@code abortOutput} (may be null) removes unfinished output files. */
  RunSettings settings(CommandLine.Model.CommandSpec spec, @Nullable Runnable abortOutput) {
    PrintWriter err = spec.commandLine().getErr();
    return new RunSettings(
        onError == OnError.fail,
        check,
        message -> {
          err.println("schedlab: run failed: " + message);
          err.flush();
          if (abortOutput != null) {
            abortOutput.run();
          }
          Main.halt(Main.RUN_FAILED);
        });
  }
}
