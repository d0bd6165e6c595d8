package dev.schedlab.cli;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import dev.schedlab.cluster.ClusterSettings;
import dev.schedlab.cluster.Coordinator;
import dev.schedlab.lab.matrix.CellExecutor;
import dev.schedlab.lab.matrix.LocalCellExecutor;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Guice wiring of {@code schedlab matrix}: what runs the cells, chosen here and nowhere else: this
 * machine's cores, or a cluster with this process as coordinator ({@code --cluster}).
 */
final class MatrixModule extends AbstractModule {
  /**
   * What the choice depends on.
   *
   * @param jobs cells run at once in this process
   * @param cluster the cluster to coordinate, or null to run locally
   * @param pluginsDir the plugins directory (sent to the workers), or null
   * @param clusterLog where the coordinator reports members joining, leaving and refused
   */
  record Options(
      int jobs,
      @Nullable ClusterSettings cluster,
      @Nullable Path pluginsDir,
      Consumer<String> clusterLog) {}

  /** Makes the executor for one matrix invocation's options. */
  interface CellExecutors {
    CellExecutor create(Options options);
  }

  @Provides
  CellExecutors executors() {
    return o ->
        o.cluster() == null
            ? new LocalCellExecutor(o.jobs())
            : new Coordinator(o.cluster(), o.jobs(), o.pluginsDir(), o.clusterLog());
  }
}
