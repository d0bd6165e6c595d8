package dev.schedlab.engine.core;

import java.util.BitSet;

/** Parses kernel cpulists such as {@code 0-3,8,10-11}. */
final class CpuLists {
  private CpuLists() {}

  static BitSet parse(String list, int nrCpus, String field) {
    BitSet set = new BitSet(nrCpus);
    if (list == null || list.isBlank()) {
      return set;
    }
    for (String part : list.split(",")) {
      String p = part.trim();
      int dash = p.indexOf('-');
      try {
        int lo = Integer.parseInt(dash < 0 ? p : p.substring(0, dash).trim());
        int hi = dash < 0 ? lo : Integer.parseInt(p.substring(dash + 1).trim());
        if (lo < 0 || hi >= nrCpus || lo > hi) {
          throw new IllegalArgumentException(field + ": range '" + p + "' is outside CPUs 0-" + (nrCpus - 1));
        }
        set.set(lo, hi + 1);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(field + ": expected a cpulist like 0-3,8, got '" + list + "'");
      }
    }
    return set;
  }
}
