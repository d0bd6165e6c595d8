package dev.schedlab.host.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.host.HostException;
import dev.schedlab.host.ModelRunner;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The host's stress-ng release: read from --version, and handed to the model's stress-ng. */
class StressNgVersionTest {
  /** The file check-host's stored comparison runs against (docs/validation.md). */
  private static final ModelRunner MODEL = new ModelRunner(Path.of("../docs/validation/host.yaml"));

  @Test
  void theReleaseIsReadFromRealVersionLines() {
    // Debian 12's package (this project's host), then later upstream builds
    StressNgVersion bookworm =
        StressNgVersion.parse(
            "stress-ng, version 0.15.06 (gcc 12.2.0, x86_64 Linux 6.18.44-fc-v669)\n");
    StressNgVersion v1704 =
        StressNgVersion.parse(
            "stress-ng, version 0.17.04 (gcc 13.2.0, x86_64 Linux 6.8.0-31-generic) \uD83D\uDCBB\uD83D\uDD25");
    StressNgVersion v1806 =
        StressNgVersion.parse("stress-ng, version 0.18.06 (clang 19.1.7, x86_64 Linux 6.12.1)");
    assertThat(bookworm).isNotNull();
    assertThat(v1704).isNotNull();
    assertThat(v1806).isNotNull();
    assertThat(bookworm.text()).isEqualTo("0.15.06");
    assertThat(bookworm.modelVersion()).isEqualTo(1506);
    assertThat(v1704.modelVersion()).isEqualTo(1704);
    assertThat(v1806.modelVersion()).isEqualTo(1806);
    assertThat(StressNgVersion.parse("stress-ng: unrecognized option '--version'")).isNull();
  }

  @Test
  void theModelsStressNgRunsAsTheHostsRelease() {
    // --mmap-slow-munmap came with V0.17.05: the model's tool refuses it when told it is older
    Env bookworm =
        new Env(1, true, false, 2, StressNgVersion.parse("stress-ng, version 0.15.06 (gcc)"));
    List<String[]> tools = List.<String[]>of(bookworm.stressNgTool("--mmap 1 --mmap-slow-munmap"));
    assertThatThrownBy(() -> MODEL.run("v1506", tools, 1_000_000L, 1, List.of()))
        .isInstanceOf(HostException.class)
        .hasMessageContaining("params.version 1506");
  }

  @Test
  void anUnknownReleaseLeavesTheModelsDefault() throws HostException {
    Env unknown = new Env(1, true, false, 2);
    List<String[]> tools = List.<String[]>of(unknown.stressNgTool("--mmap 1 --mmap-slow-munmap"));
    ModelRunner.Outcome o = MODEL.run("default", tools, 1_000_000L, 1, List.of());
    assertThat(o.result().events()).isPositive();
  }
}
