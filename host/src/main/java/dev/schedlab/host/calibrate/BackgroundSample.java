package dev.schedlab.host.calibrate;

import dev.schedlab.host.HostFiles;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One reading of the counters the background measurement takes deltas of: /proc/softirqs TIMER and
 * RCU and /proc/interrupts LOC summed over the CPUs, and each bound kworker's run count and
 * runtime.
 *
 * @param timer TIMER softirqs, all CPUs
 * @param rcu RCU softirqs, all CPUs
 * @param loc local timer interrupts, all CPUs (-1 when unreadable)
 * @param kworkers by pid, the bound kworkers ({@code kworker/N:M}, not the highpri {@code H} or
 *     unbound {@code uN} pools): {@code {runtime ns, run count}} from /proc/PID/schedstat
 */
record BackgroundSample(long timer, long rcu, long loc, Map<Integer, long[]> kworkers) {
  /** A bound, normal-priority kworker's comm (its current work function may follow a dash). */
  private static final Pattern BOUND_KWORKER = Pattern.compile("kworker/\\d+:\\d+(-.*)?");

  BackgroundSample {
    kworkers = Map.copyOf(kworkers);
  }

  /** Reads the counters under {@code f}; empty when /proc/softirqs has no TIMER or RCU row. */
  static Optional<BackgroundSample> read(HostFiles f) {
    Optional<String> softirqs = f.text("/proc/softirqs");
    if (softirqs.isEmpty()) {
      return Optional.empty();
    }
    Map<String, Long> s = rows(softirqs.get());
    if (!s.containsKey("TIMER") || !s.containsKey("RCU")) {
      return Optional.empty();
    }
    long loc = f.text("/proc/interrupts").map(t -> rows(t).getOrDefault("LOC", -1L)).orElse(-1L);
    Map<Integer, long[]> kw = new LinkedHashMap<>();
    for (String pid : f.list("/proc", "\\d+")) {
      String comm = f.text("/proc/" + pid + "/comm").orElse("");
      if (!BOUND_KWORKER.matcher(comm).matches()) {
        continue;
      }
      f.text("/proc/" + pid + "/schedstat")
          .flatMap(BackgroundSample::schedstat)
          .ifPresent(v -> kw.put(Integer.parseInt(pid), v));
    }
    return Optional.of(new BackgroundSample(s.get("TIMER"), s.get("RCU"), loc, kw));
  }

  /** /proc/PID/schedstat: {@code runtime_ns wait_ns timeslices}: runtime and run count. */
  static Optional<long[]> schedstat(String text) {
    String[] f = text.trim().split("\\s+", -1);
    if (f.length < 3) {
      return Optional.empty();
    }
    try {
      return Optional.of(new long[] {Long.parseLong(f[0]), Long.parseLong(f[2])});
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** Rows of /proc/softirqs or /proc/interrupts, each summed over the CPUs. */
  static Map<String, Long> rows(String text) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (String line : text.split("\n", -1)) {
      int colon = line.indexOf(':');
      if (colon <= 0) {
        continue;
      }
      long sum = 0;
      for (String v : line.substring(colon + 1).trim().split("\\s+", -1)) {
        if (!v.matches("\\d+")) {
          break;
        }
        sum += Long.parseLong(v);
      }
      m.put(line.substring(0, colon).trim(), sum);
    }
    return m;
  }
}
