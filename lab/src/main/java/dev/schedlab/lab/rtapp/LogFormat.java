package dev.schedlab.lab.rtapp;

import java.util.List;
import java.util.Locale;

/**
 * rt-app's file layouts: the thread log (its header line and fixed-width rows, as rt-app's {@code
 * thread_body()} and {@code log_timing()} print them) and the gnuplot scripts ({@code
 * setup_thread_gnuplot()}, {@code setup_main_gnuplot()}). Source: scheduler-tools/rt-app
 * src/rt-app.c and src/rt-app_utils.c at 55cb0c0.
 */
public final class LogFormat {
  private LogFormat() {}

  /** The header line rt-app writes first in every thread log. */
  public static String header() {
    return String.format(
            Locale.ROOT,
            "%s %8s %8s %8s %15s %15s %15s %10s %10s %10s %10s",
            "#idx",
            "perf",
            "run",
            "period",
            "start",
            "end",
            "rel_st",
            "slack",
            "c_duration",
            "c_period",
            "wu_lat")
        + "\n";
  }

  /** One row, fixed width. */
  public static String row(LogRow r) {
    return String.format(
            Locale.ROOT,
            "%4d %8d %8d %8d %15d %15d %15d %10d %10d %10d %10d",
            r.idx(),
            r.perf(),
            r.run(),
            r.period(),
            r.start(),
            r.end(),
            r.relSt(),
            r.slack(),
            r.cDuration(),
            r.cPeriod(),
            r.wuLat())
        + "\n";
  }

  /** A whole thread log. */
  public static String log(List<LogRow> rows) {
    StringBuilder sb = new StringBuilder(header());
    for (LogRow r : rows) {
      sb.append(row(r));
    }
    return sb.toString();
  }

  /** {@code BASENAME-THREAD.plot}: load, run and period of one thread against its start time. */
  public static String threadPlot(String basename, String thread) {
    String log = "\"" + basename + "-" + thread + ".log\"";
    return "set terminal postscript enhanced color\n"
        + "set output '"
        + basename
        + "-"
        + thread
        + ".eps'\n"
        + "set grid\n"
        + "set key outside right\n"
        + "set title \"Measured "
        + thread
        + " Loop stats\"\n"
        + "set xlabel \"Loop start time [msec]\"\n"
        + "set ylabel \"Period/Run Time [usec]\"\n"
        + "set y2label \"Load [number of 1000 loops executed]\"\n"
        + "set y2tics  \n"
        + "set xtics rotate by -45\n"
        + "plot "
        + log
        + " u ($5/1000000):2 w l title \"load \" axes x1y2, "
        + log
        + " u ($5/1000000):3 w l title \"run \", "
        + log
        + " u ($5/1000000):4 w l title \"period \" \n"
        + "set terminal wxt\nreplot\n";
  }

  /**
   * {@code BASENAME-period.plot} ({@code column} 4) or {@code BASENAME-run.plot} (3): every
   * thread's period or run time against its start time.
   *
   * @param threads thread names in index order, each with its policy name
   */
  public static String mainPlot(String basename, boolean period, List<String[]> threads) {
    StringBuilder sb =
        new StringBuilder()
            .append("set terminal postscript enhanced color\n")
            .append("set output '")
            .append(basename)
            .append(period ? "-period.eps'\n" : "-run.eps'\n")
            .append("set grid\n")
            .append("set key outside right\n")
            .append(
                period
                    ? "set title \"Measured time per loop\"\n"
                    : "set title \"Measured run time per loop\"\n")
            .append("set xlabel \"Loop start time [usec]\"\n")
            .append(
                period ? "set ylabel \"Period Time [usec]\"\n" : "set ylabel \"Run Time [usec]\"\n")
            .append("set xtics rotate by -45\n")
            .append("set key noenhanced\n")
            .append("plot ");
    for (int i = 0; i < threads.size(); i++) {
      String name = threads.get(i)[0];
      sb.append('"')
          .append(basename)
          .append('-')
          .append(name)
          .append(".log\" u ($5/1000):")
          .append(period ? 4 : 3)
          .append(" w l title \"thread [")
          .append(name)
          .append("] (")
          .append(threads.get(i)[1])
          .append(")\"")
          .append(i == threads.size() - 1 ? "\n" : ", ");
    }
    return sb.append("set terminal wxt\nreplot\n").toString();
  }
}
