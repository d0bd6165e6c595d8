package dev.schedlab.host;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Describes the machine under {@code root} ({@code /} for the one schedlab runs on) from sysfs and
 * procfs. Works unprivileged and under lockdown: what cannot be read keeps a stated default.
 */
public final class HostDetector {
  private HostDetector() {}

  public static HostDescription describe(Path root) {
    HostFiles f = new HostFiles(root);
    String release = f.text("/proc/sys/kernel/osrelease").orElse("unknown");
    KernelConfig config = KernelConfig.read(f, release);
    KernelProbe kernel = new KernelProbe(f, config);
    TopologyProbe.Result topo = TopologyProbe.probe(f);
    IdleProbe.Result idle = IdleProbe.probe(f, 0);
    List<String> notes = new ArrayList<>();
    Sourced<Boolean> virt = kernel.virtualized(notes);
    kernel.clockevent(notes);
    Sourced<String> preempt = kernel.preempt();
    if (config.on("PREEMPT_DYNAMIC")) {
      notes.add(
          "preemption: PREEMPT_DYNAMIC ("
              + config.source()
              + "); the model switches "
              + "none/voluntary/full/lazy by name, as preempt= does");
    }
    Map<String, Sourced<Long>> params = new LinkedHashMap<>();
    params.putAll(KernelProbe.versionParams(release));
    params.putAll(kernel.baseSliceParam(topo.nrCpus()));
    params.putAll(kernel.vcpuPackParams());
    params.putAll(kernel.delayedWakeParams());
    params.putAll(kernel.forkPreemptParams());
    params.putAll(
        TopologyProbe.privateCacheParam(f, topo.firstCpu(), topo.threadsPerCore().value()));
    if (idle.governor().value().equals("haltpoll")) {
      params.putAll(kernel.haltpollParams());
    }
    String summary =
        "Linux "
            + release
            + " "
            + f.text("/proc/sys/kernel/arch").orElse("")
            + ", "
            + cpuModel(f)
            + ", "
            + topo.nrCpus()
            + " CPUs";
    return new HostDescription(
        summary.replaceAll("\\s+", " "),
        topo.sockets(),
        topo.coresPerSocket(),
        topo.threadsPerCore(),
        topo.coresPerLlc(),
        topo.numaNodesPerSocket(),
        idle.states(),
        idle.disabled(),
        idle.governor(),
        virt,
        kernel.isolatedCpus(),
        kernel.mitigations(),
        kernel.hz(),
        preempt,
        kernel.timerSlackNs(),
        params,
        notes);
  }

  private static String cpuModel(HostFiles f) {
    for (String line : f.text("/proc/cpuinfo").orElse("").split("\n", -1)) {
      if (line.startsWith("model name") && line.contains(":")) {
        return line.substring(line.indexOf(':') + 1).trim();
      }
    }
    return "unknown CPU";
  }
}
