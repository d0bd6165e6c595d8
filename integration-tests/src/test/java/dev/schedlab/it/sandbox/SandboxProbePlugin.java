package dev.schedlab.it.sandbox;

import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Packed as a zip and run in the container: reports what a third-party plugin's code can reach, by
 * failing its {@code contribute()} with a message the test reads (the user it runs as, whether it
 * can open a connection, write to the root file system, and how much heap the JVM has).
 */
public final class SandboxProbePlugin implements SchedlabPlugin {
  @Override
  public PluginDescriptor descriptor() {
    return new PluginDescriptor(
        "sandbox-probe", "1.0.0", "sandbox probe", Set.of(), Set.of(), ">=1.0.0 & <2.0.0");
  }

  @Override
  public void contribute(Contributions c, PluginOptions options) {
    List<String> seen = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) {
          seen.add("uid=" + line.split("\\s+")[1]);
        }
      }
    } catch (IOException e) {
      seen.add("uid=unknown");
    }
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("1.1.1.1", 53), 2_000);
      seen.add("network=open");
    } catch (IOException e) {
      seen.add("network=refused");
    }
    try {
      Files.writeString(Path.of("/opt/schedlab/probe.txt"), "x");
      seen.add("rootfs=writable");
    } catch (IOException e) {
      seen.add("rootfs=read-only");
    }
    seen.add("max_heap_mb=" + Runtime.getRuntime().maxMemory() / (1024 * 1024));
    seen.add("cpus=" + Runtime.getRuntime().availableProcessors());
    throw new IllegalStateException("sandbox " + String.join(" ", seen));
  }
}
