package dev.schedlab.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The warning before measuring on a machine that other work keeps busy. */
class LoadAverageTest {
  @TempDir Path root;

  private HostFiles loadavg(String text) throws Exception {
    Files.createDirectories(root.resolve("proc"));
    Files.writeString(root.resolve("proc/loadavg"), text);
    return new HostFiles(root);
  }

  @Test
  void moreRunnableTasksThanCpusOverTheLastMinuteWarns() throws Exception {
    assertThat(LoadAverage.busyWarning(loadavg("6.06 4.11 2.34 3/412 9999\n"), 2))
        .hasValueSatisfying(w -> assertThat(w).contains("load average 6.06").contains("2 CPUs"));
  }

  @Test
  void aQuietMachineOrAnUnreadableFileDoesNot() throws Exception {
    assertThat(LoadAverage.busyWarning(loadavg("1.45 1.09 0.79 1/300 42\n"), 2)).isEmpty();
    assertThat(LoadAverage.busyWarning(loadavg("garbage\n"), 2)).isEmpty();
    assertThat(LoadAverage.busyWarning(new HostFiles(root.resolve("none")), 2)).isEmpty();
  }
}
