package dev.schedlab.benchmarks;

import dev.schedlab.benchmarks.WholeRunBenchmark.Sample;
import java.io.PrintStream;
import java.util.Locale;

/** Prints {@link WholeRunBenchmark}'s table and its one-line JSON summary. */
final class WholeRunReport {
  private WholeRunReport() {}

  @SuppressWarnings("InlineFormatString") // the table header and its rows share one layout
  static void print(PrintStream out, WholeRunOptions o, Sample full) {
    out.printf(
        Locale.ROOT,
        "schedlab whole run: %d CPUs, %d tasks, seed %d, Java %s, %d CPUs" + " available%s%n",
        o.cpus(),
        tasks(o),
        o.seed(),
        System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors(),
        o.runs() > 1 ? ", best of " + o.runs() + " by CPU time" : "");
    String head = "%-9s %9s %13s %11s %12s %11s %14s %12s %9s %12s%n";
    out.printf(
        Locale.ROOT,
        head,
        "run",
        "sim s",
        "events",
        "loop wall s",
        "total wall s",
        "sim s/wall s",
        "events/wall s",
        "bytes/event",
        "cpu s",
        "cpu ns/event");
    row(out, "measured", full);
    out.printf(
        Locale.ROOT,
        "steady-state bytes/event (second half of the run): %.4f (%d bytes, %d events)%n",
        full.steadyBytesPerEvent(),
        full.steadyBytes(),
        full.steadyEvents());
    out.println(json(o, full));
  }

  private static void row(PrintStream out, String name, Sample s) {
    out.printf(
        Locale.ROOT,
        "%-9s %9.3f %13d %11.3f %12.3f %11.4f %14.0f %12.2f %9.3f %12.1f%n",
        name,
        s.simNs() / 1e9,
        s.events(),
        s.loopWallNs() / 1e9,
        s.totalWallNs() / 1e9,
        s.simSecondsPerWallSecond(),
        s.eventsPerWallSecond(),
        s.bytesPerEvent(),
        s.cpuNs() / 1e9,
        s.cpuNsPerEvent());
  }

  private static int tasks(WholeRunOptions o) {
    return 2 * o.cpus() * o.taskScale() * WholeRunScenario.HOGS / WholeRunScenario.CPUS;
  }

  static String json(WholeRunOptions o, Sample full) {
    return String.format(
        Locale.ROOT,
        "{\"benchmark\":\"whole_run\",\"cpus\":%d,\"tasks\":%d,"
            + "\"seed\":%d,\"sim_seconds\":%s,\"events\":%d,\"loop_wall_ns\":%d,"
            + "\"total_wall_ns\":%d,\"sim_seconds_per_wall_second\":%s,"
            + "\"events_per_wall_second\":%s,\"allocated_bytes\":%d,\"bytes_per_event\":%s,"
            + "\"steady_state_events\":%d,\"steady_state_allocated_bytes\":%d,"
            + "\"steady_state_bytes_per_event\":%s,\"cpu_ns\":%d,\"cpu_ns_per_event\":%s,"
            + "\"runs\":%d,\"java_version\":\"%s\",\"available_processors\":%d}",
        o.cpus(),
        tasks(o),
        o.seed(),
        num(full.simNs() / 1e9),
        full.events(),
        full.loopWallNs(),
        full.totalWallNs(),
        num(full.simSecondsPerWallSecond()),
        num(full.eventsPerWallSecond()),
        full.bytes(),
        num(full.bytesPerEvent()),
        full.steadyEvents(),
        full.steadyBytes(),
        num(full.steadyBytesPerEvent()),
        full.cpuNs(),
        num(full.cpuNsPerEvent()),
        o.runs(),
        System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors());
  }

  /** A JSON number, or null for NaN/infinite. */
  private static String num(double d) {
    return Double.isFinite(d) ? String.format(Locale.ROOT, "%.6g", d) : "null";
  }
}
