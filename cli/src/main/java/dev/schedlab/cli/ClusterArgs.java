package dev.schedlab.cli;

import dev.schedlab.cluster.ClusterException;
import dev.schedlab.cluster.Secret;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/** What {@code matrix --cluster} and {@code worker} share: reading the cluster secret. */
final class ClusterArgs {
  private ClusterArgs() {}

  /**
   * The secret from {@code file}, else from the environment; warns on {@code err} when the file can
   * be read by other users.
   */
  static Secret secret(@Nullable Path file, PrintWriter err) throws ClusterException {
    Secret s = Secret.resolve(file, System.getenv());
    String warning = file == null ? null : Secret.permissionWarning(file);
    if (warning != null) {
      err.println("schedlab: warning: " + warning);
    }
    return s;
  }
}
