package dev.schedlab.cli;

import dev.schedlab.cluster.ClusterException;
import dev.schedlab.cluster.ClusterSettings;
import dev.schedlab.cluster.Endpoint;
import dev.schedlab.cluster.MatrixId;
import dev.schedlab.cluster.Secret;
import dev.schedlab.cluster.Worker;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code schedlab worker}: a cluster member that runs cells of a matrix; see docs/matrix.md. */
@Command(
    name = "worker",
    mixinStandardHelpOptions = true,
    description = {
      "Join the cluster of a matrix run with `schedlab matrix FILE --cluster` and run"
          + " its cells until the matrix is complete. The coordinator prints the command line; the"
          + " matrix id is also printed by `schedlab matrix FILE --list`. When the coordinator stops"
          + " before the matrix is complete, the worker waits for it to come back."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:the matrix is complete",
      "1:internal error",
      "2:bad input, or refused by the coordinator (another schedlab version, other plugins)"
    })
final class WorkerCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--join",
      required = true,
      paramLabel = "HOST:PORT[,HOST:PORT...]",
      description = "The coordinator's address (port " + Endpoint.DEFAULT_PORT + " when left out).")
  String join;

  @Option(
      names = "--matrix",
      required = true,
      paramLabel = "ID",
      description = "The matrix id the coordinator printed.")
  String matrix;

  @Option(
      names = "--bind",
      paramLabel = "HOST[:PORT]",
      description =
          "The interface (and first port) to listen on, and only there (default: the"
              + " address this machine reaches the coordinator from; port "
              + Endpoint.DEFAULT_PORT
              + " or the next free one).")
  @Nullable String bind;

  @Option(
      names = "--secret-file",
      paramLabel = "FILE",
      description = "The file holding the cluster's shared secret (default: $" + Secret.ENV + ").")
  @Nullable Path secretFile;

  @Option(
      names = {"-j", "--jobs"},
      paramLabel = "N",
      description = "Cells run at once (default: the number of available processors).")
  @Nullable Integer jobs;

  @Option(
      names = "--plugins-dir",
      paramLabel = "DIR",
      description =
          "A plugins directory shared with the coordinator (its zips must have the same"
              + " SHA-256). Default: receive the coordinator's plugins, checked by hash.")
  @Nullable Path pluginsDir;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    if (!MatrixId.valid(matrix)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--matrix: expected the 16 hex"
              + " digits of a matrix id (schedlab matrix FILE --list prints it), got '"
              + matrix
              + "'");
    }
    int threads = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
    if (threads < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--jobs must be at least 1");
    }
    if (pluginsDir != null && !Files.isDirectory(pluginsDir)) {
      throw new ClusterException("--plugins-dir " + pluginsDir + ": no such directory");
    }
    List<Endpoint> coordinator = Endpoint.parseList(join, Endpoint.DEFAULT_PORT);
    Endpoint at =
        bind != null
            ? Endpoint.parse(bind, Endpoint.DEFAULT_PORT)
            : new Endpoint(towards(coordinator.get(0)), Endpoint.DEFAULT_PORT);
    ClusterSettings.checkBind(at);
    ClusterSettings settings =
        new ClusterSettings(at, coordinator, ClusterArgs.secret(secretFile, err));
    try (Worker w =
        new Worker(
            new Worker.Settings(matrix, settings, threads, pluginsDir),
            s -> {
              err.println("worker: " + s);
              err.flush();
            })) {
      Thread stop = new Thread(w::close, "schedlab-worker-stop");
      Runtime.getRuntime().addShutdownHook(stop); // Ctrl-C, kill: leave at once, start nothing new
      int status = w.run();
      try {
        Runtime.getRuntime().removeShutdownHook(stop);
      } catch (IllegalStateException e) {
        // the process is stopping already
      }
      return status == Worker.DONE
          ? Main.OK
          : status == Worker.REFUSED ? Main.BAD_INPUT : Main.RUN_FAILED;
    }
  }

  /**
   * The local address this machine would use to reach {@code e} (no packet is sent: connecting a
   * UDP socket only picks the route).
   */
  static String towards(Endpoint e) throws ClusterException {
    try (DatagramSocket s = new DatagramSocket()) {
      s.connect(new InetSocketAddress(e.host(), e.port()));
      String a = s.getLocalAddress().getHostAddress();
      if (s.getLocalAddress().isAnyLocalAddress()) {
        throw new ClusterException("cannot tell which interface reaches " + e + "; give --bind");
      }
      return a;
    } catch (IOException | IllegalArgumentException x) {
      throw new ClusterException(
          "cannot reach " + e + " (" + x.getMessage() + "); check --join or" + " give --bind");
    }
  }
}
