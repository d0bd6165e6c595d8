package dev.schedlab.cli;

import com.google.inject.Guice;
import com.google.inject.Module;
import dev.schedlab.cluster.ClusterException;
import dev.schedlab.lab.run.Failures;
import dev.schedlab.lab.scenario.ScenarioException;
import dev.schedlab.report.ReportInputException;
import dev.schedlab.traceimport.TraceInputException;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code schedlab} command. Results go to stdout, errors to stderr. */
@Command(
    name = "schedlab",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Deterministic discrete-event model of the Linux scheduler.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:success",
      "1:the run failed (a plugin misbehaved under --on-plugin-error fail, a plugin hook exceeded"
          + " its wall-clock budget, or a model invariant broke) or internal error",
      "2:bad input: scenario error, plugin selection error or invalid arguments",
      "3:run: the run completed after ejecting a misbehaving plugin (matrix: see its help)"
    })
public final class Main implements Callable<Integer> {
  /** Exit code of a successful command. */
  public static final int OK = CommandLine.ExitCode.OK;

  /** Exit code of a failed run. */
  public static final int RUN_FAILED = CommandLine.ExitCode.SOFTWARE;

  /** Exit code of bad input. */
  public static final int BAD_INPUT = CommandLine.ExitCode.USAGE;

  /** Exit code of a run that completed after ejecting a plugin. */
  public static final int EJECTED = 3;

  /** The commands, in the order the help lists them. */
  private static final List<Class<?>> COMMANDS =
      List.of(
          RunCommand.class,
          ValidateCommand.class,
          PluginsCommand.class,
          CompareCommand.class,
          ReproduceCommand.class,
          MatrixCommand.class,
          HostCommand.class,
          CheckHostCommand.class,
          ImportTraceCommand.class,
          ReplayCommand.class,
          ReportCommand.class,
          WorkerCommand.class);

  /** Guice's switch for runtime class generation (com.google.inject.internal.InternalFlags). */
  private static final String GUICE_BYTECODE = "guice_bytecode_gen_option";

  /** Ends the process at once (a plugin call that never returns); tests may replace it. */
  static volatile java.util.function.IntConsumer halt = code -> Runtime.getRuntime().halt(code);

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine()
        .getErr()
        .println(
            "schedlab: missing command (run, validate, plugins,"
                + " compare, reproduce, matrix, worker, host, check-host, import-trace, replay or report)");
    spec.commandLine().usage(spec.commandLine().getErr());
    return BAD_INPUT;
  }

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    // Guice then builds the commands by reflection instead of generating a class for each (about
    // 60 ms of CPU and 45 classes of a short run that no class-data-sharing archive can hold).
    if (System.getProperty(GUICE_BYTECODE) == null) {
      System.setProperty(GUICE_BYTECODE, "DISABLED");
    }
    PrintWriter out = new PrintWriter(System.out, true, Charset.defaultCharset());
    PrintWriter err = new PrintWriter(System.err, true, Charset.defaultCharset());
    System.exit(execute(out, err, args));
  }

  /** Runs {@code args} writing to {@code out} and {@code err}; returns the exit code. */
  public static int execute(PrintWriter out, PrintWriter err, String... args) {
    return execute(new AppModule(), out, err, args);
  }

  /**
   * As {@link #execute(PrintWriter, PrintWriter, String...)} with the application assembled from
   * {@code app} (the composition root: the only place an injector is made).
   */
  static int execute(Module app, PrintWriter out, PrintWriter err, String... args) {
    CommandLine cl = new CommandLine(Main.class, new GuiceFactory(Guice.createInjector(app)));
    commandsFor(args).forEach(cl::addSubcommand);
    cl.setOut(out).setErr(err);
    cl.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          cmd.getErr().println("schedlab: " + describe(ex));
          cmd.getErr().flush();
          return exitCode(ex);
        });
    int code = cl.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /**
   * The commands to build for {@code args}: the command named first alone, else (help, version, a
   * mistyped command) all. picocli reads each command's options by reflection and Guice builds it:
   * for the eleven commands a run does not use, about 35 ms of a short run's main thread.
   */
  private static List<Class<?>> commandsFor(String... args) {
    if (args.length > 0) {
      for (Class<?> c : COMMANDS) {
        if (c.getAnnotation(Command.class).name().equals(args[0])) {
          return List.of(c);
        }
      }
    }
    return COMMANDS;
  }

  /** Ends the process with {@code code} without waiting for the stuck simulation thread. */
  static void halt(int code) {
    halt.accept(code);
  }

  /**
   * Input the user can fix: a scenario, plugin, output file, trace, report input or cluster option.
   */
  private static boolean badInput(Exception ex) {
    return ex instanceof ScenarioException
        || Failures.isPluginError(ex)
        || ex instanceof OutputFileException
        || ex instanceof TraceInputException
        || ex instanceof ReportInputException
        || ex instanceof ClusterException;
  }

  static int exitCode(Exception ex) {
    if (badInput(ex)) {
      return BAD_INPUT;
    }
    return RUN_FAILED;
  }

  private static @Nullable String describe(Exception ex) {
    if (badInput(ex)) {
      return ex.getMessage();
    }
    if (Failures.isRunFailure(ex)) {
      return "run failed: " + ex.getMessage();
    }
    return "internal error: " + ex;
  }
}
