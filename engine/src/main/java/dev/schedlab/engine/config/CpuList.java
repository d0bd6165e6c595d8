package dev.schedlab.engine.config;

import java.util.BitSet;

/**
 * Kernel cpulist syntax as in {@code isolcpus=} or {@code taskset -c}: comma-separated CPUs and
 * inclusive ranges, for example {@code 0-3,8,10-11}. The empty string is the empty set.
 */
public final class CpuList {
  private CpuList() {}

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException with a message saying what is wrong
   */
  public static BitSet parse(String text) {
    BitSet cpus = new BitSet();
    String t = text.trim();
    if (t.isEmpty()) {
      return cpus;
    }
    for (String part : t.split(",", -1)) {
      String p = part.trim();
      int dash = p.indexOf('-');
      int lo;
      int hi;
      if (dash < 0) {
        lo = number(p, text);
        hi = lo;
      } else {
        lo = number(p.substring(0, dash), text);
        hi = number(p.substring(dash + 1), text);
        if (hi < lo) {
          throw new IllegalArgumentException(
              "range " + p + " in cpulist '" + text + "' is backwards; expected LOW-HIGH");
        }
      }
      cpus.set(lo, hi + 1);
    }
    return cpus;
  }

  /**
   * Parses {@code text} and checks every CPU is below {@code nrCpus}.
   *
   * @throws IllegalArgumentException when malformed or out of range
   */
  public static BitSet parse(String text, int nrCpus) {
    BitSet cpus = parse(text);
    if (cpus.length() > nrCpus) {
      throw new IllegalArgumentException(
          "CPU "
              + (cpus.length() - 1)
              + " in cpulist '"
              + text
              + "' does not exist; expected CPUs 0-"
              + (nrCpus - 1));
    }
    return cpus;
  }

  /** The canonical cpulist of {@code cpus}, ranges merged ({@code 0-3,8}). */
  public static String format(BitSet cpus) {
    StringBuilder sb = new StringBuilder();
    for (int lo = cpus.nextSetBit(0); lo >= 0; ) {
      int hi = cpus.nextClearBit(lo) - 1;
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(lo);
      if (hi > lo) {
        sb.append('-').append(hi);
      }
      lo = cpus.nextSetBit(hi + 1);
    }
    return sb.toString();
  }

  private static int number(String s, String whole) {
    String n = s.trim();
    if (n.isEmpty() || !n.chars().allMatch(Character::isDigit) || n.length() > 6) {
      throw new IllegalArgumentException(
          "cpulist '"
              + whole
              + "' is malformed at '"
              + s.trim()
              + "'; expected CPU numbers and ranges such as 0-3,8,10-11");
    }
    return Integer.parseInt(n);
  }
}
