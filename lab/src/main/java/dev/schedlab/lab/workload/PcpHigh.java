package dev.schedlab.lab.workload;

/**
 * A CPU's pcp high bounds for its node's zone, as v6.8 mm/page_alloc.c sets them at boot
 * (zone_set_pageset_high_and_batch with percpu_pagelist_high_fraction 0): {@code high_min} is the
 * zone's low watermark split over the node's CPUs, {@code high_max} an eighth of the zone's managed
 * pages (MIN_PERCPU_PAGELIST_HIGH_FRACTION) split the same way, both at least 4 batches
 * (zone_highsize). The watermarks follow __setup_per_zone_wmarks: min_free_kbytes =
 * int_sqrt(lowmem_kbytes * 16) clamped to 128..262144 (calculate_min_free_kbytes), the zone's min
 * its share of that by managed pages, low = min + max(min / 4, managed * watermark_scale_factor /
 * 10000).
 *
 * <p>Does not model: node 0's DMA/DMA32 zones (each node's memory is one ZONE_NORMAL), memory the
 * kernel keeps (managed = present), lowmem_reserve, the CPU-hotplug term of zone_highsize.
 *
 * @param highMin pages
 * @param highMax pages
 */
record PcpHigh(int highMin, int highMax) {
  /** The 4 KiB pages of a MiB. */
  private static final long PAGES_PER_MIB = 256;

  /**
   * The bounds on a machine of {@code cpus} CPUs in {@code nodes} nodes with {@code memPerCpuMiB}
   * per CPU, for a list of base batch {@code batch}.
   */
  static PcpHigh of(int cpus, int nodes, long memPerCpuMiB, long scaleFactor, int batch) {
    int nodeCpus = Math.max(1, cpus / Math.max(1, nodes));
    long managed = memPerCpuMiB * PAGES_PER_MIB * nodeCpus;
    long lowmemPages = memPerCpuMiB * PAGES_PER_MIB * cpus;
    long lowmemKbytes = lowmemPages * 4;
    long minFreeKbytes = Math.max(128, Math.min(262_144, isqrt(lowmemKbytes * 16)));
    long min = (minFreeKbytes >> 2) * managed / Math.max(1, lowmemPages);
    long low = min + Math.max(min >> 2, managed * scaleFactor / 10_000);
    long floor = 4L * batch;
    return new PcpHigh(
        (int) Math.min(Integer.MAX_VALUE, Math.max(floor, low / nodeCpus)),
        (int) Math.min(Integer.MAX_VALUE, Math.max(floor, managed / 8 / nodeCpus)));
  }

  private static long isqrt(long x) {
    long r = (long) Math.sqrt((double) x);
    while (r * r > x) {
      r--;
    }
    while ((r + 1) * (r + 1) <= x) {
      r++;
    }
    return r;
  }
}
