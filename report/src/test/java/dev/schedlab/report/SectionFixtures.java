package dev.schedlab.report;

import java.nio.file.Files;
import java.nio.file.Path;

/** Hand-made inputs in the documented formats of compare, reproduce and matrix. */
public final class SectionFixtures {
  /** A comparison of a baseline and one plugin set over 3 seeds. */
  public static final String COMPARE =
      """
      {
        "baseline" : "baseline",
        "configurations" : [ "baseline", "spin" ],
        "seeds" : [ 1, 2, 3 ],
        "digests" : { "baseline" : [ "a", "b", "c" ], "spin" : [ "d", "e", "f" ] },
        "same_digests_as_baseline" : { "baseline" : true, "spin" : false },
        "metrics" : {
          "metric.latency.wake.max" : { "baseline" : { "mean" : 900.0, "ci95" : 50.0, "normalised" : 1.0 },
            "spin" : { "mean" : 450.0, "ci95" : 30.0, "normalised" : 0.5 } },
          "metric.latency.wake.min" : { "baseline" : { "mean" : 100.0, "ci95" : 0.0, "normalised" : 1.0 },
            "spin" : { "mean" : 100.0, "ci95" : 0.0, "normalised" : 1.0 } },
          "metric.latency.wake.p50" : { "baseline" : { "mean" : 200.0, "ci95" : 10.0, "normalised" : 1.0 },
            "spin" : { "mean" : 150.0, "ci95" : 10.0, "normalised" : 0.75 } },
          "metric.latency.wake.p90" : { "baseline" : { "mean" : 400.0, "ci95" : 20.0, "normalised" : 1.0 },
            "spin" : { "mean" : 300.0, "ci95" : 20.0, "normalised" : 0.75 } },
          "metric.sched.wakeups" : { "baseline" : { "mean" : 1000.0, "ci95" : 12.5, "normalised" : 1.0 },
            "spin" : { "mean" : 1000.0, "ci95" : 12.5, "normalised" : 1.0 } },
          "metric.spin.started" : { "baseline" : { "mean" : 0.0, "ci95" : 0.0, "normalised" : 1.0 },
            "spin" : { "mean" : 35.666666666666664, "ci95" : 2.0, "normalised" : null } }
        }
      }
      """;

  /** One experiment with a band on its first row. */
  public static final String REPRODUCE =
      """
      {
        "experiment" : "demo",
        "columns" : [ "baseline", "patched" ],
        "rows" : [ {
          "label" : "normalised runtime", "unit" : "ratio",
          "simulated" : [ 1.0, 0.784401 ], "published" : [ 1.0, 0.8 ], "band" : [ null, [ 0.72, 0.88 ] ]
        }, {
          "label" : "IPIs", "unit" : "count", "simulated" : [ 5012.5, null ], "published" : [ null, null ]
        } ],
        "notes" : [ "a note" ]
      }
      """;

  private SectionFixtures() {}

  /**
   * A matrix output directory: 2 workloads x 2 plugin sets x 2 seeds, summary column metric.x,
   * cells.jsonl with metric.x and metric.y; the cell of workload b, plugins all, seed 2 failed.
   */
  public static Path matrix(Path dir) throws Exception {
    Files.createDirectories(dir);
    StringBuilder cells = new StringBuilder();
    StringBuilder log = new StringBuilder();
    int i = 0;
    for (String w : new String[] {"a", "b"}) {
      for (String p : new String[] {"none", "all"}) {
        for (int seed = 1; seed <= 2; seed++) {
          boolean failed = w.equals("b") && p.equals("all") && seed == 2;
          double x = (w.equals("a") ? 10 : 20) + (p.equals("all") ? 1 : 0) + seed / 10.0;
          double y = 100 * x;
          String id = "r" + i;
          cells
              .append(i == 0 ? "" : ",\n")
              .append(
                  String.format(
                      java.util.Locale.ROOT,
                      "{\"index\":%d,\"run_id\":\"%s\",\"workload\":\"%s\",\"source\":\"s\",\"machine\":\"scenario\","
                          + "\"params\":\"-\",\"overrides\":[],\"plugins\":\"%s\",\"seed\":%d,\"status\":\"%s\","
                          + "\"error\":%s,\"digest\":%s,\"events\":%d,\"sim_ns\":%d,\"values\":{\"metric.x\":%s}}",
                      i,
                      id,
                      w,
                      p,
                      seed,
                      failed ? "failed" : "ok",
                      failed ? "\"run failed: boom\"" : "null",
                      failed ? "null" : "\"d" + i + "\"",
                      failed ? 0 : 1000 + i,
                      failed ? 0 : 5_000_000,
                      failed ? "null" : Double.toString(x)));
          if (!failed) {
            log.append(
                String.format(
                    java.util.Locale.ROOT,
                    "{\"run_id\":\"%s\",\"status\":\"ok\",\"values\":{\"metric.x\":%s,\"metric.y\":%s}}%n",
                    id,
                    Double.toString(x),
                    Double.toString(y)));
          }
          i++;
        }
      }
    }
    Files.writeString(
        dir.resolve("summary.json"),
        "{\"matrix\":\"demo\",\"version\":\"v\",\"shard\":\"1/1\","
            + "\"cells_total\":8,\"failed\":1,\"ran\":8,\"reused\":0,\"cells\":[\n"
            + cells
            + "]}\n");
    Files.writeString(dir.resolve("cells.jsonl"), log.toString());
    return dir;
  }
}
