package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.model.HostConfig;
import dev.schedlab.engine.plugin.PluginZip;
import dev.schedlab.it.sandbox.SandboxProbePlugin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.utility.DockerImageName;

/**
 * Third-party plugins run in the container as docs/plugin-safety.md prescribes: as a non-root user,
 * without network, on a read-only root file system (a tmpfs for /tmp), with memory and CPU limits.
 * A probe plugin reports what its code can reach; a bundled plugin runs under the same limits.
 */
@ExtendWith(SchedlabImage.class)
class ContainerPluginSandboxIT {
  static final long MEMORY = 512L << 20;

  /** Any exit ends the one-shot container; the test reads the exit code itself. */
  static final class Exited extends StartupCheckStrategy {
    @Override
    public StartupStatus checkStartupState(
        com.github.dockerjava.api.DockerClient docker, String containerId) {
      var state = getCurrentState(docker, containerId);
      return state.getRunning() ? StartupStatus.NOT_YET_KNOWN : StartupStatus.SUCCESSFUL;
    }
  }

  record Run(long exitCode, String out, String err) {}

  /** {@code schedlab ARGS} in a sandboxed container with {@code plugins} at /work/plugins. */
  static Run sandboxed(Path plugins, String... args) throws java.io.IOException {
    // readable by the container's user (JUnit makes temporary directories private)
    Files.setPosixFilePermissions(plugins, PosixFilePermissions.fromString("rwxr-xr-x"));
    try (var files = Files.list(plugins)) {
      for (Path f : files.toList()) {
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
      }
    }
    try (GenericContainer<?> c =
        new GenericContainer<>(DockerImageName.parse(SchedlabImage.name()))) {
      c.withCommand(args)
          // a bind mount: Docker copies nothing into a container whose root is read-only
          .withFileSystemBind(plugins.toString(), "/work/plugins", BindMode.READ_ONLY)
          .withTmpFs(Map.of("/tmp", "rw,size=256m"))
          .withStartupCheckStrategy(new Exited().withTimeout(Duration.ofMinutes(10)))
          .withCreateContainerCmdModifier(
              cmd -> {
                cmd.withUser("65534:65534");
                HostConfig h = cmd.getHostConfig();
                h.withNetworkMode("none")
                    .withReadonlyRootfs(true)
                    .withMemory(MEMORY)
                    .withMemorySwap(MEMORY)
                    .withNanoCPUs(1_000_000_000L)
                    .withPidsLimit(256L);
              });
      c.start();
      long code = c.getCurrentContainerInfo().getState().getExitCodeLong();
      return new Run(
          code, c.getLogs(OutputFrame.OutputType.STDOUT), c.getLogs(OutputFrame.OutputType.STDERR));
    }
  }

  @Test
  void aPluginsCodeRunsAsNobodyWithoutNetworkOnAReadOnlyRootWithinTheLimits(@TempDir Path tmp)
      throws Exception {
    Path plugins = Files.createDirectories(tmp.resolve("plugins"));
    PluginZip.of("sandbox-probe", SandboxProbePlugin.class).zipInto(plugins);
    Run r =
        sandboxed(
            plugins,
            "run",
            "scenarios/cyclictest.yaml",
            "--plugins-dir",
            "/work/plugins",
            "--plugin",
            "sandbox-probe",
            "--set",
            "duration=10ms");
    assertThat(r.exitCode()).as(r.err()).isEqualTo(2); // the probe fails its contribute()
    assertThat(r.err())
        .contains(
            "plugin sandbox-probe failed in contribute(): sandbox uid=65534",
            "network=refused",
            "rootfs=read-only",
            "cpus=1");
    long heapMb = Long.parseLong(r.err().replaceAll("(?s).*max_heap_mb=(\\d+).*", "$1"));
    assertThat(heapMb).isLessThan(MEMORY >> 20); // the JVM sized its heap to the container
  }

  @Test
  void aBundledPluginRunsToTheEndUnderTheSameLimits(@TempDir Path tmp) throws Exception {
    Path plugins = Files.createDirectories(tmp.resolve("plugins"));
    Files.copy(PluginZips.all().get("sm-idle"), plugins.resolve("sm-idle.zip"));
    Run r =
        sandboxed(
            plugins,
            "run",
            "scenarios/cyclictest.yaml",
            "--plugins-dir",
            "/work/plugins",
            "--plugin",
            "sm-idle",
            "--set",
            "duration=50ms",
            "--format",
            "json");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("\"plugins\" : [", "\"sm-idle\"", "\"sim_ns\" : 50000000")
        .doesNotContain("\"ejections\"");
  }
}
