package dev.schedlab.host;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Packages, cores, SMT siblings, last-level caches and NUMA nodes from
 * /sys/devices/system/cpu/cpuN/topology and .../cache, and /sys/devices/system/node.
 */
final class TopologyProbe {
  private static final String CPU = "/sys/devices/system/cpu";

  record Result(
      Sourced<Integer> sockets,
      Sourced<Integer> coresPerSocket,
      Sourced<Integer> threadsPerCore,
      Sourced<Integer> coresPerLlc,
      Sourced<Integer> numaNodesPerSocket,
      int nrCpus,
      int firstCpu) {}

  private TopologyProbe() {}

  static Result probe(HostFiles f) {
    BitSet online = f.text(CPU + "/online").map(CpuLists::parse).orElseGet(BitSet::new);
    String cpusSource = CPU + "/online";
    if (online.isEmpty()) {
      for (String d : f.list(CPU, "cpu\\d+")) {
        online.set(Integer.parseInt(d.substring(3)));
      }
      cpusSource = CPU + "/cpuN";
    }
    if (online.isEmpty()) {
      online.set(0, Math.max(1, Runtime.getRuntime().availableProcessors()));
      cpusSource = "the JVM's available processors";
    }
    int n = online.cardinality();
    int first = online.nextSetBit(0);
    TreeSet<Long> packages = new TreeSet<>();
    for (int c = online.nextSetBit(0); c >= 0; c = online.nextSetBit(c + 1)) {
      f.number(CPU + "/cpu" + c + "/topology/physical_package_id").ifPresent(packages::add);
    }
    Sourced<Integer> sockets =
        packages.isEmpty()
            ? Sourced.fallback(1, CPU + "/cpuN/topology/physical_package_id unreadable")
            : Sourced.of(
                packages.size(),
                CPU
                    + "/cpu*/topology/physical_package_id: "
                    + packages.size()
                    + " package(s) over "
                    + n
                    + " CPUs ("
                    + cpusSource
                    + ")");
    String topo = CPU + "/cpu" + first + "/topology/";
    int threads =
        f.text(topo + "thread_siblings_list")
            .or(() -> f.text(topo + "core_cpus_list"))
            .map(s -> CpuLists.parse(s).cardinality())
            .orElse(0);
    Sourced<Integer> smt =
        threads > 0
            ? Sourced.of(threads, topo + "thread_siblings_list")
            : Sourced.fallback(1, topo + "thread_siblings_list unreadable");
    int perSocket = Math.max(1, n / sockets.value() / smt.value());
    String note =
        n % (sockets.value() * smt.value()) == 0
            ? ""
            : " (irregular: " + n + " CPUs do not divide evenly; rounded down)";
    Sourced<Integer> cores =
        Sourced.of(
            perSocket,
            n
                + " CPUs / "
                + sockets.value()
                + " package(s) / "
                + smt.value()
                + " thread(s)"
                + note);
    return new Result(
        sockets,
        cores,
        smt,
        llc(f, first, smt.value(), perSocket),
        numa(f, sockets.value()),
        n,
        first);
  }

  /** The cache with the highest level that the CPU has: its sharers are the LLC. */
  private static Sourced<Integer> llc(HostFiles f, int cpu, int threads, int perSocket) {
    String dir = CPU + "/cpu" + cpu + "/cache";
    long best = -1;
    String bestIndex = null;
    for (String idx : f.list(dir, "index\\d+")) {
      long level = f.number(dir + "/" + idx + "/level").orElse(-1L);
      String type = f.text(dir + "/" + idx + "/type").orElse("Unified");
      if (level > best && !type.equals("Instruction")) {
        best = level;
        bestIndex = idx;
      }
    }
    if (bestIndex == null) {
      return Sourced.fallback(0, dir + "/indexN unreadable: one LLC per package");
    }
    String path = dir + "/" + bestIndex + "/shared_cpu_list";
    List<String> text = f.text(path).stream().toList();
    if (text.isEmpty()) {
      return Sourced.fallback(0, path + " unreadable: one LLC per package");
    }
    int sharers = CpuLists.parse(text.get(0)).cardinality();
    int cores = Math.max(1, sharers / threads);
    int value = cores >= perSocket || perSocket % cores != 0 ? 0 : cores;
    return Sourced.of(
        value,
        path
            + " (L"
            + best
            + "): "
            + text.get(0)
            + (value == 0 ? " = the whole package" : " = " + cores + " cores"));
  }

  /**
   * {@code cache.private_lines}: the largest data cache of {@code cpu} that no other core shares
   * (on x86 its L2, shared at most by its SMT siblings), in lines; empty if none is readable.
   */
  static Map<String, Sourced<Long>> privateCacheParam(HostFiles f, int cpu, int threads) {
    String dir = CPU + "/cpu" + cpu + "/cache";
    long bestBytes = 0;
    long lineBytes = 64;
    String bestPath = null;
    for (String idx : f.list(dir, "index\\d+")) {
      String path = dir + "/" + idx;
      boolean data = !f.text(path + "/type").orElse("Unified").equals("Instruction");
      int sharers =
          f.text(path + "/shared_cpu_list").map(t -> CpuLists.parse(t).cardinality()).orElse(0);
      long bytes = f.text(path + "/size").map(TopologyProbe::sizeBytes).orElse(0L);
      if (data && sharers >= 1 && sharers <= threads && bytes > bestBytes) {
        bestBytes = bytes;
        bestPath = path;
        lineBytes = f.number(path + "/coherency_line_size").filter(n -> n > 0).orElse(64L);
      }
    }
    if (bestPath == null) {
      return Map.of();
    }
    return Map.of(
        "cache.private_lines",
        Sourced.of(
            bestBytes / lineBytes,
            bestPath
                + "/size: "
                + bestBytes / 1024
                + "K in "
                + lineBytes
                + "-byte lines, the largest cache of the CPU no other core shares"));
  }

  /** A sysfs cache size such as {@code 2048K}, in bytes; 0 if unreadable. */
  private static long sizeBytes(String text) {
    String t = text.trim();
    long unit = 1;
    if (t.endsWith("K")) {
      unit = 1024;
    } else if (t.endsWith("M")) {
      unit = 1024 * 1024;
    }
    String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
    try {
      return Long.parseLong(digits) * unit;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static Sourced<Integer> numa(HostFiles f, int sockets) {
    List<String> nodes = f.list("/sys/devices/system/node", "node\\d+");
    if (nodes.isEmpty()) {
      return Sourced.fallback(1, "/sys/devices/system/node unreadable: one node per package");
    }
    int per = Math.max(1, nodes.size() / sockets);
    return Sourced.of(per, "/sys/devices/system/node: " + nodes.size() + " node(s)");
  }
}
