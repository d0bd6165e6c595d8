package dev.schedlab.host.check;

import dev.schedlab.host.HostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsers of what the real tools and /proc print. */
final class RealOutputs {
  private static final Pattern STRESS_PCT = Pattern.compile("(\\d+\\.\\d+)%:\\s+(\\d+) ns");
  private static final Pattern STRESS_MAX = Pattern.compile("max: (\\d+) ns");

  private RealOutputs() {}

  /**
   * cyclictest {@code -h} output: the histogram's counts per microsecond summed over the threads
   * (index = us; overflows as one more bucket past the end) and the largest of the maxima.
   */
  static Latencies cyclictest(String out) throws HostException {
    List<Long> counts = new ArrayList<>();
    long max = -1;
    long overflows = 0;
    for (String line : out.split("\n", -1)) {
      if (line.startsWith("# Max Latencies:")) {
        for (String v : line.substring("# Max Latencies:".length()).trim().split("\\s+", -1)) {
          max = Math.max(max, Long.parseLong(v));
        }
      } else if (line.startsWith("# Histogram Overflows:")) {
        for (String v :
            line.substring("# Histogram Overflows:".length()).trim().split("\\s+", -1)) {
          overflows += Long.parseLong(v);
        }
      } else if (!line.startsWith("#") && line.matches("\\d+(\\s+\\d+)+\\s*")) {
        String[] f = line.trim().split("\\s+", -1);
        int us = Integer.parseInt(f[0]);
        long n = 0;
        for (int i = 1; i < f.length; i++) {
          n += Long.parseLong(f[i]);
        }
        while (counts.size() <= us) {
          counts.add(0L);
        }
        counts.set(us, counts.get(us) + n);
      }
    }
    if (max < 0 || counts.isEmpty()) {
      throw new HostException("cyclictest printed no histogram and maximum:\n" + tail(out));
    }
    counts.add(overflows);
    return new Latencies(counts, max);
  }

  /** stress-ng --cyclic's percentile lines (ns), by percent, and "max". */
  static Map<String, Double> stressCyclic(String out) throws HostException {
    Map<String, Double> m = new LinkedHashMap<>();
    for (String line : out.split("\n", -1)) {
      if (!line.contains("cyclic:")) {
        continue;
      }
      Matcher p = STRESS_PCT.matcher(line);
      if (p.find()) {
        m.put(p.group(1), Double.parseDouble(p.group(2)));
      }
      Matcher x = STRESS_MAX.matcher(line);
      if (x.find()) {
        m.put("max", Double.parseDouble(x.group(1)));
      }
    }
    if (!m.containsKey("50.00") || !m.containsKey("max")) {
      throw new HostException("stress-ng --cyclic printed no latency percentiles:\n" + tail(out));
    }
    return m;
  }

  /** hackbench's {@code Time: T} in seconds. */
  static double hackbench(String out) throws HostException {
    Matcher m = Pattern.compile("Time: ([0-9.]+)").matcher(out);
    if (!m.find()) {
      throw new HostException("hackbench printed no Time:\n" + tail(out));
    }
    return Double.parseDouble(m.group(1));
  }

  /** Every {@code usecs/op} figure perf bench printed. */
  static List<Double> perfUsecsPerOp(String out) {
    List<Double> v = new ArrayList<>();
    Matcher m = Pattern.compile("([0-9.]+) usecs/op").matcher(out);
    while (m.find()) {
      v.add(Double.parseDouble(m.group(1)));
    }
    return v;
  }

  /** {@code perf stat -x,}'s count for {@code event}, or NaN when not counted. */
  static double perfStat(String err, String event) {
    for (String line : err.split("\n", -1)) {
      String[] f = line.split(",", -1);
      if (f.length > 2 && f[2].equals(event)) {
        try {
          return Double.parseDouble(f[0]);
        } catch (NumberFormatException e) {
          return Double.NaN; // <not supported> or <not counted>
        }
      }
    }
    return Double.NaN;
  }

  /**
   * A whole-number field of {@code /proc/PID/sched} ({@code "se.nr_migrations : 4"}).
   *
   * @throws HostException when the field is missing
   */
  static long schedField(String text, String field) throws HostException {
    for (String line : text.split("\n", -1)) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equals(field)) {
        try {
          return Long.parseLong(line.substring(colon + 1).trim());
        } catch (NumberFormatException e) {
          throw new HostException(
              "/proc/PID/sched: " + field + " is not a whole number: " + line, e);
        }
      }
    }
    throw new HostException("/proc/PID/sched has no " + field + " (" + tail(text) + ")");
  }

  /** The rows of /proc/interrupts or /proc/softirqs, each summed over the CPUs. */
  static Map<String, Long> procCounts(String text) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (String line : text.split("\n", -1)) {
      int colon = line.indexOf(':');
      if (colon <= 0) {
        continue;
      }
      String key = line.substring(0, colon).trim();
      long sum = 0;
      for (String f : line.substring(colon + 1).trim().split("\\s+", -1)) {
        if (!f.matches("\\d+")) {
          break;
        }
        sum += Long.parseLong(f);
      }
      m.put(key, sum);
    }
    return m;
  }

  private static String tail(String s) {
    String t = s.strip();
    return t.length() <= 600 ? t : "..." + t.substring(t.length() - 600);
  }
}
