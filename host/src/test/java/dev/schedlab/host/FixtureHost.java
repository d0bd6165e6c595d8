package dev.schedlab.host;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/** Writes a small /sys and /proc tree for detection tests. */
final class FixtureHost {
  private final Path root;

  FixtureHost(Path root) {
    this.root = root;
  }

  FixtureHost file(String path, String text) throws IOException {
    Path p = root.resolve(path.substring(1));
    Files.createDirectories(p.getParent());
    Files.writeString(p, text + "\n", StandardCharsets.UTF_8);
    return this;
  }

  /** /proc/config.gz with {@code lines}. */
  FixtureHost config(String... lines) throws IOException {
    Path p = root.resolve("proc/config.gz");
    Files.createDirectories(p.getParent());
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
      out.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return this;
  }

  /**
   * {@code n} online CPUs in {@code packages} packages: CPU c is core c % cores of its package, its
   * SMT siblings are c + k * (n / threads) (the x86 server numbering); the L3 is shared by {@code
   * coresPerLlc} cores.
   */
  FixtureHost cpus(int packages, int coresPerPackage, int threads, int coresPerLlc)
      throws IOException {
    int cores = packages * coresPerPackage;
    int n = cores * threads;
    file("/sys/devices/system/cpu/online", "0-" + (n - 1));
    for (int c = 0; c < n; c++) {
      int core = c % cores;
      String dir = "/sys/devices/system/cpu/cpu" + c;
      file(dir + "/topology/physical_package_id", Integer.toString(core / coresPerPackage));
      file(dir + "/topology/core_id", Integer.toString(core % coresPerPackage));
      StringBuilder sib = new StringBuilder();
      for (int t = 0; t < threads; t++) {
        sib.append(t == 0 ? "" : ",").append(core + t * cores);
      }
      file(dir + "/topology/thread_siblings_list", sib.toString());
      int llc = core / coresPerLlc;
      StringBuilder shared = new StringBuilder();
      for (int t = 0; t < threads; t++) {
        int first = llc * coresPerLlc + t * cores;
        shared.append(t == 0 ? "" : ",").append(first).append('-').append(first + coresPerLlc - 1);
      }
      file(dir + "/cache/index0/level", "1");
      file(dir + "/cache/index0/type", "Data");
      file(dir + "/cache/index0/shared_cpu_list", sib.toString());
      file(dir + "/cache/index3/level", "3");
      file(dir + "/cache/index3/type", "Unified");
      file(dir + "/cache/index3/shared_cpu_list", shared.toString());
    }
    return this;
  }

  /** cpuidle state {@code k} of CPU 0 (latency and residency in us). */
  FixtureHost state(
      int k, String name, String desc, long latencyUs, long residencyUs, boolean disabled)
      throws IOException {
    String dir = "/sys/devices/system/cpu/cpu0/cpuidle/state" + k;
    return file(dir + "/name", name)
        .file(dir + "/desc", desc)
        .file(dir + "/latency", Long.toString(latencyUs))
        .file(dir + "/residency", Long.toString(residencyUs))
        .file(dir + "/disable", disabled ? "1" : "0");
  }

  FixtureHost cpuinfo(String model, String flags) throws IOException {
    return file(
        "/proc/cpuinfo", "processor\t: 0\nmodel name\t: " + model + "\nflags\t\t: " + flags);
  }
}
