package dev.schedlab.host;

import java.util.BitSet;

/** The kernel's cpulist syntax ({@code 0-3,8,10-11}), lenient: what does not parse is skipped. */
public final class CpuLists {
  private CpuLists() {}

  public static BitSet parse(String list) {
    BitSet out = new BitSet();
    for (String part : list.trim().split(",", -1)) {
      String p = part.trim();
      if (p.isEmpty()) {
        continue;
      }
      try {
        int dash = p.indexOf('-');
        if (dash < 0) {
          out.set(Integer.parseInt(p));
        } else {
          String range = p.contains(":") ? p.substring(0, p.indexOf(':')) : p;
          int lo = Integer.parseInt(range.substring(0, dash));
          int hi = Integer.parseInt(range.substring(dash + 1));
          out.set(lo, hi + 1);
        }
      } catch (NumberFormatException | IndexOutOfBoundsException e) {
        // a flag such as "domain" or "managed_irq" in isolcpus=
      }
    }
    return out;
  }

  public static String format(BitSet set) {
    StringBuilder sb = new StringBuilder();
    for (int i = set.nextSetBit(0); i >= 0; ) {
      int end = set.nextClearBit(i) - 1;
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(i);
      if (end > i) {
        sb.append('-').append(end);
      }
      i = set.nextSetBit(end + 1);
    }
    return sb.toString();
  }
}
