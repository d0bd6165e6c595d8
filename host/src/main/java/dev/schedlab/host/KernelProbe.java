package dev.schedlab.host;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The kernel's configuration as the model needs it: HZ, the preemption model, isolated CPUs, the
 * default timer slack, whether it runs as a VM guest, its mitigations, and the module parameters of
 * the haltpoll governor. Each read falls back to a stated default.
 */
final class KernelProbe {
  private final HostFiles f;
  private final KernelConfig config;
  private final String cmdline;

  KernelProbe(HostFiles f, KernelConfig config) {
    this.f = f;
    this.config = config;
    this.cmdline = f.text("/proc/cmdline").orElse("");
  }

  Sourced<Integer> hz() {
    Optional<String> hz = config.value("HZ");
    if (hz.isPresent()) {
      return Sourced.of(Integer.parseInt(hz.get()), config.source() + ": CONFIG_HZ=" + hz.get());
    }
    return Sourced.fallback(
        250,
        "the kernel configuration is unreadable (no /proc/config.gz "
            + "or /boot/config-RELEASE); 250 is the x86 default");
  }

  /** The preemption model in effect, and a note on whether it is dynamic. */
  Sourced<String> preempt() {
    Optional<String> debugfs = f.text("/sys/kernel/debug/sched/preempt");
    if (debugfs.isPresent()) {
      Matcher m = Pattern.compile("\\((\\w+)\\)").matcher(debugfs.get());
      if (m.find()) {
        return Sourced.of(m.group(1), "/sys/kernel/debug/sched/preempt: " + debugfs.get());
      }
    }
    Optional<String> arg = argument("preempt");
    String dynamic = config.on("PREEMPT_DYNAMIC") ? "PREEMPT_DYNAMIC" : "";
    if (arg.isPresent() && !dynamic.isEmpty()) {
      return Sourced.of(arg.get(), "/proc/cmdline: preempt=" + arg.get());
    }
    if (config.readable()) {
      String model =
          config.on("PREEMPT_RT")
              ? "full"
              : config.on("PREEMPT_LAZY") && !config.on("PREEMPT")
                  ? "lazy"
                  : config.on("PREEMPT")
                      ? "full"
                      : config.on("PREEMPT_VOLUNTARY") ? "voluntary" : "none";
      String rt =
          config.on("PREEMPT_RT")
              ? "; PREEMPT_RT's sleeping locks are not modelled, full stands in"
              : "";
      return Sourced.of(
          model,
          config.source()
              + ": the build's default"
              + (dynamic.isEmpty()
                  ? ""
                  : " (PREEMPT_DYNAMIC, no preempt= on the command line; "
                      + "/sys/kernel/debug/sched/preempt was unreadable)")
              + rt);
    }
    String version = f.text("/proc/sys/kernel/version").orElse("");
    if (version.contains("PREEMPT_RT") || version.contains("PREEMPT ")) {
      return Sourced.of("full", "/proc/sys/kernel/version: " + version);
    }
    return Sourced.fallback("voluntary", "no preemption model readable (debugfs, cmdline, config)");
  }

  /** isolcpus= and nohz_full= CPUs, which the model isolates together. */
  Sourced<String> isolatedCpus() {
    BitSet cpus = new BitSet();
    List<String> seen = new ArrayList<>();
    for (String key : new String[] {"isolcpus", "nohz_full"}) {
      Optional<String> v = argument(key);
      if (v.isPresent()) {
        cpus.or(CpuLists.parse(v.get()));
        seen.add(key + "=" + v.get());
      }
    }
    argument("rcu_nocbs").ifPresent(v -> seen.add("rcu_nocbs=" + v));
    if (seen.isEmpty()) {
      return Sourced.of("", "/proc/cmdline: no isolcpus=, nohz_full=");
    }
    return Sourced.of(CpuLists.format(cpus), "/proc/cmdline: " + String.join(" ", seen));
  }

  Sourced<Long> timerSlackNs() {
    return f.number("/proc/self/timerslack_ns")
        .map(v -> Sourced.of(v, "/proc/self/timerslack_ns (inherited from init)"))
        .orElseGet(
            () ->
                Sourced.fallback(
                    50_000L,
                    "/proc/self/timerslack_ns unreadable; "
                        + "the kernel's default, init_task.timer_slack_ns"));
  }

  /** A VM guest: the CPUID hypervisor bit, as /proc/cpuinfo shows it. */
  Sourced<Boolean> virtualized(List<String> notes) {
    Optional<String> cpuinfo = f.text("/proc/cpuinfo");
    if (cpuinfo.isEmpty()) {
      return Sourced.fallback(false, "/proc/cpuinfo unreadable");
    }
    boolean guest = flags(cpuinfo.get()).contains("hypervisor");
    if (!guest) {
      return Sourced.of(false, "/proc/cpuinfo flags: no hypervisor bit (bare metal)");
    }
    String clocks =
        f.text("/sys/devices/system/clocksource/clocksource0/available_clocksource").orElse("");
    String kind =
        clocks.contains("kvm-clock")
            ? "KVM (kvm-clock)"
            : clocks.contains("hyperv")
                ? "Hyper-V"
                : f.text("/sys/hypervisor/type").orElse("unknown");
    notes.add(
        "hypervisor: "
            + kind
            + (kind.startsWith("KVM")
                ? ""
                : "; the model's guest is KVM's "
                    + "(VM exits, host halt polling), which stands in for it"));
    return Sourced.of(true, "/proc/cpuinfo flags: hypervisor (" + kind + ")");
  }

  /** Mitigation names from /sys/devices/system/cpu/vulnerabilities and the CPU flags. */
  Sourced<List<String>> mitigations() {
    String dir = "/sys/devices/system/cpu/vulnerabilities";
    Map<String, String> v = new LinkedHashMap<>();
    for (String name : f.list(dir, "[a-z0-9_]+")) {
      f.text(dir + "/" + name).ifPresent(t -> v.put(name, t));
    }
    if (v.isEmpty()) {
      return Sourced.fallback(List.of(), dir + " unreadable: none assumed");
    }
    List<String> out = new ArrayList<>();
    List<String> why = new ArrayList<>();
    if (v.getOrDefault("meltdown", "").contains("PTI")) {
      out.add("pti");
      why.add("meltdown: " + v.get("meltdown"));
      if (flags(f.text("/proc/cpuinfo").orElse("")).contains("pcid")) {
        out.add("pcid");
      }
    }
    String v2 = v.getOrDefault("spectre_v2", "");
    if (v2.contains("Retpoline")) {
      out.add("retpoline");
    }
    if (v2.contains("RSB filling")) {
      out.add("rsb_fill");
    }
    if (v2.contains("IBPB: always-on")) {
      out.add("ibpb");
    }
    if (!v2.isEmpty()) {
      why.add("spectre_v2: " + v2);
    }
    for (String k :
        List.of("mds", "tsx_async_abort", "mmio_stale_data", "reg_file_data_sampling", "tsa")) {
      if (v.getOrDefault(k, "").contains("Clear CPU buffers") && !out.contains("verw")) {
        out.add("verw");
        why.add(k + ": " + v.get(k));
      }
    }
    for (String k : List.of("retbleed", "spec_rstack_overflow")) {
      String t = v.getOrDefault(k, "").toLowerCase(Locale.ROOT);
      if ((t.contains("return thunk") || t.contains("safe ret")) && !out.contains("return_thunk")) {
        out.add("return_thunk");
        why.add(k + ": " + v.get(k));
      }
    }
    return Sourced.of(
        out, dir + ": " + (why.isEmpty() ? "nothing the model charges" : String.join("; ", why)));
  }

  /** The haltpoll governor's module parameters, by parameter key. */
  Map<String, Sourced<Long>> haltpollParams() {
    Map<String, Sourced<Long>> out = new LinkedHashMap<>();
    String dir = "/sys/module/haltpoll/parameters/";
    for (String p :
        List.of(
            "guest_halt_poll_ns",
            "guest_halt_poll_grow",
            "guest_halt_poll_grow_start",
            "guest_halt_poll_shrink",
            "guest_halt_poll_allow_shrink")) {
      f.text(dir + p)
          .ifPresent(
              t -> {
                Long value =
                    t.equals("Y") ? Long.valueOf(1) : t.equals("N") ? Long.valueOf(0) : parse(t);
                if (value != null) {
                  out.put("haltpoll." + p, Sourced.of(value, dir + p));
                }
              });
    }
    return out;
  }

  /**
   * Kernel-version features of the fair class, from the release: {@code feature.PROTECT_QUANTUM}
   * (Vincent Guittot's slice-protection series) and {@code feature.YIELD_FORFEIT} (79104becf42b)
   * are 1 from v6.17, 0 before; {@code feature.FORK_NO_PREEMPT} (Mel Gorman's NEXT_BUDDY rework) 1
   * from v6.19; none for a release that does not start with a version number.
   */
  static Map<String, Sourced<Long>> versionParams(String release) {
    Matcher m = Pattern.compile("^(\\d+)\\.(\\d+)").matcher(release);
    if (!m.find()) {
      return Map.of();
    }
    int major = Integer.parseInt(m.group(1));
    int minor = Integer.parseInt(m.group(2));
    boolean v617 = major > 6 || (major == 6 && minor >= 17);
    String why =
        v617
            ? " is v6.17+: update_curr() reschedules when the slice protection ends"
            : " is before v6.17: the slice protection of v6.12";
    String yield =
        v617
            ? " is v6.17+: yield_task_fair() forfeits the yielder's vruntime"
            : " is before v6.17: yield_task_fair() moves the deadline on";
    boolean v619 = major > 6 || (major == 6 && minor >= 19);
    String fork =
        v619
            ? " is v6.19+: a new task never preempts at its wakeup (the NEXT_BUDDY rework)"
            : " is before v6.19: a new task may preempt its parent at its wakeup";
    return Map.of(
        "feature.PROTECT_QUANTUM",
        Sourced.of(v617 ? 1L : 0L, "/proc/sys/kernel/osrelease: " + release + why),
        "feature.YIELD_FORFEIT",
        Sourced.of(v617 ? 1L : 0L, "/proc/sys/kernel/osrelease: " + release + yield),
        "feature.FORK_NO_PREEMPT",
        Sourced.of(v619 ? 1L : 0L, "/proc/sys/kernel/osrelease: " + release + fork));
  }

  /**
   * {@code sched.base_slice} from the slice the kernel gives this process: {@code se.slice} of
   * /proc/self/sched (shown since v6.15, 9065ce69754d) is the base slice times {@code 1 +
   * ilog2(min(ncpus, 8))} ({@code get_update_sysctl_factor()}), the factor the model applies to its
   * normalized parameter. Mainline's base slice is 0.70 ms since 2ae891b82695 ("sched: Reduce the
   * default slice to avoid tasks getting an extra tick", v6.15, also in 6.6 stable), 0.75 ms
   * before. Nothing when the line is missing (the model keeps its default).
   */
  Map<String, Sourced<Long>> baseSliceParam(int nrCpus) {
    String path = "/proc/self/sched";
    Optional<String> text = f.text(path);
    if (text.isEmpty()) {
      return Map.of();
    }
    Matcher m = Pattern.compile("(?m)^se\\.slice\\s*:\\s*(\\d+)").matcher(text.get());
    if (!m.find()) {
      return Map.of();
    }
    long slice = Long.parseLong(m.group(1));
    int factor = 1 + (31 - Integer.numberOfLeadingZeros(Math.max(1, Math.min(nrCpus, 8))));
    return Map.of(
        "sched.base_slice",
        Sourced.of(
            slice / factor,
            path
                + ": se.slice "
                + slice
                + " ns on "
                + nrCpus
                + " CPUs, the base slice times "
                + factor
                + " (1 + ilog2(min(ncpus, 8)))"));
  }

  /**
   * {@code sched.vcpu_pack_util} and {@code sched.vcpu_pack_fork_util} of a kernel booted with the
   * out-of-tree {@code sched_vcpu_pack=} (not 0): the packing thresholds measured on this project's
   * machine, whose kernel carries it ({@code vcpu_pack_room} in /proc/kallsyms); nothing without
   * the parameter.
   */
  Map<String, Sourced<Long>> vcpuPackParams() {
    Optional<String> arg = argument("sched_vcpu_pack");
    if (arg.isEmpty() || arg.get().equals("0")) {
      return Map.of();
    }
    String why =
        "/proc/cmdline: sched_vcpu_pack="
            + arg.get()
            + " (out-of-tree vCPU packing); the threshold measured on Linux 6.18.44-fc with "
            + "sched_vcpu_pack=15 (docs/validation.md, ";
    Map<String, Sourced<Long>> params = new LinkedHashMap<>(); // the machine file's order
    params.put(
        "sched.vcpu_pack_util", Sourced.of(VCPU_PACK_UTIL_MEASURED, why + "'Wakeup packing')"));
    params.put(
        "sched.vcpu_pack_fork_util",
        Sourced.of(VCPU_PACK_FORK_UTIL_MEASURED, why + "'Fork packing')"));
    return params;
  }

  /**
   * {@code feature.TTWU_DEQUEUE} for the kernel build that carries the out-of-tree {@code
   * sched_vcpu_pack=} (whatever its value): on it a woken task still queued as a delayed dequeue,
   * beside another task and free to run elsewhere, was measured to complete its dequeue and take
   * the regular wakeup path, CPU selection included ({@code delayed-wake.c}: 1295 of 1300 such
   * wakeups went to the idle CPU), while pinned ones were requeued in place, and {@code
   * feature.TTWU_DEQUEUE_KEEP_LAG}: that dequeue keeps the lag the task earned while delayed (a
   * forked pair's woken parent preempted its child at 195 of 197 such wakeups, {@code
   * delayed-lag.c}; docs/validation.md, "Delayed wakees"). Nothing for other kernels: the model
   * keeps its default, the requeue in place of v6.12's {@code ttwu_runnable()}.
   */
  Map<String, Sourced<Long>> delayedWakeParams() {
    Optional<String> arg = argument("sched_vcpu_pack");
    if (arg.isEmpty()) {
      return Map.of();
    }
    Map<String, Sourced<Long>> params = new LinkedHashMap<>(); // the machine file's order
    params.put(
        "feature.TTWU_DEQUEUE",
        Sourced.of(
            1L,
            "/proc/cmdline: sched_vcpu_pack="
                + arg.get()
                + " (the out-of-tree build); measured on Linux 6.18.44-fc: a woken delayed task"
                + " that may run elsewhere, beside another task, takes the regular wakeup path"
                + " (docs/validation.md, 'Delayed wakees')"));
    params.put(
        "feature.TTWU_DEQUEUE_KEEP_LAG",
        Sourced.of(
            1L,
            "/proc/cmdline: sched_vcpu_pack="
                + arg.get()
                + " (the out-of-tree build); measured on Linux 6.18.44-fc: that wakeup keeps the"
                + " lag the task earned while delayed (docs/validation.md, 'Delayed wakees')"));
    return params;
  }

  /**
   * {@code feature.FORK_NO_PREEMPT} for the kernel build that carries the out-of-tree {@code
   * sched_vcpu_pack=} (whatever its value), a 6.18 that behaves as the NEXT_BUDDY rework here: a
   * child pinned beside a parent that had run 5 ms alone ran within 100 us of its fork 7 times of
   * 200, at ticks ({@code fork-preempt.c}; docs/validation.md, "New tasks"). Nothing for other
   * kernels: the release decides ({@link #versionParams}).
   */
  Map<String, Sourced<Long>> forkPreemptParams() {
    Optional<String> arg = argument("sched_vcpu_pack");
    if (arg.isEmpty()) {
      return Map.of();
    }
    return Map.of(
        "feature.FORK_NO_PREEMPT",
        Sourced.of(
            1L,
            "/proc/cmdline: sched_vcpu_pack="
                + arg.get()
                + " (the out-of-tree build); measured on Linux 6.18.44-fc: a new task does not"
                + " preempt its parent at its wakeup (docs/validation.md, 'New tasks')"));
  }

  /**
   * The wakeup packing threshold, in 1024ths of a CPU's capacity, measured on this project's
   * machine: a task woken onto a CPU whose root cfs_rq util_avg read 654-736 stayed there, at
   * 731-799 it went to the idle CPU (docs/validation.md, "Wakeup packing").
   */
  static final long VCPU_PACK_UTIL_MEASURED = 720;

  /**
   * The fork packing threshold, in 1024ths of a CPU's capacity, measured on this project's machine
   * with {@code wake-packing.c -F}: children of a parent alone on its CPU stayed there at util_avg
   * 26-456, about a third at 612-749, almost none from 735 up (docs/validation.md, "Fork packing").
   */
  static final long VCPU_PACK_FORK_UTIL_MEASURED = 720;

  /** The clockevent device, recorded as a note. */
  void clockevent(List<String> notes) {
    String path = "/sys/devices/system/clockevents/clockevent0/current_device";
    f.text(path)
        .ifPresent(
            d ->
                notes.add(
                    "clockevent: "
                        + d
                        + " ("
                        + path
                        + "); the model programs "
                        + "a one-shot per-CPU timer for the tick and hrtimers"));
  }

  private Optional<String> argument(String key) {
    Matcher m = Pattern.compile("(?:^|\\s)" + key + "=(\\S+)").matcher(cmdline);
    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
  }

  private static List<String> flags(String cpuinfo) {
    for (String line : cpuinfo.split("\n", -1)) {
      if (line.startsWith("flags") && line.contains(":")) {
        return List.of(line.substring(line.indexOf(':') + 1).trim().split("\\s+"));
      }
    }
    return List.of();
  }

  private static @Nullable Long parse(String t) {
    try {
      return Long.parseLong(t);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
