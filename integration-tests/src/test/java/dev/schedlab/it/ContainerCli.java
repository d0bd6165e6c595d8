package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * Runs the CLI in a one-shot container of {@link SchedlabImage}: host paths copied in before it
 * starts, files copied out after it exits (exit code 0 is required by the startup check).
 *
 * @param out what the CLI printed on stdout
 * @param err what it printed on stderr
 */
record ContainerCli(String out, String err) {
  /** A host file or directory and where it goes in the container. */
  record In(Path host, String container) {}

  /**
   * Runs {@code schedlab ARGS} with {@code in} copied in; each {@code out} entry (container path to
   * host path) is copied out afterwards.
   */
  static ContainerCli run(List<In> in, Map<String, Path> out, String... args) {
    assertThat(SchedlabImage.name()).as("image built").isNotNull();
    try (GenericContainer<?> c =
        new GenericContainer<>(DockerImageName.parse(SchedlabImage.name()))) {
      c.withCommand(args)
          .withStartupCheckStrategy(
              new OneShotStartupCheckStrategy().withTimeout(Duration.ofMinutes(10)));
      for (In i : in) {
        c.withCopyFileToContainer(MountableFile.forHostPath(i.host()), i.container());
      }
      c.start();
      ContainerCli r =
          new ContainerCli(
              c.getLogs(OutputFrame.OutputType.STDOUT), c.getLogs(OutputFrame.OutputType.STDERR));
      for (Map.Entry<String, Path> e : out.entrySet()) {
        c.copyFileFromContainer(e.getKey(), e.getValue().toString());
      }
      return r;
    }
  }

  static ContainerCli run(String... args) {
    return run(List.of(), new LinkedHashMap<>(), args);
  }
}
