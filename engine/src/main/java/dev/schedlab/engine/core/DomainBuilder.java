package dev.schedlab.engine.core;

import dev.schedlab.engine.params.Param;
import dev.schedlab.engine.params.ParamTable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Builds each CPU's sched domains from the topology ({@code build_sched_domains()}).
 *
 * <p>Models: the levels SMT (siblings of a core), MC (the LLC), PKG (the package, when it has
 * several LLCs) and NUMA (the machine, when it has several packages or nodes), each level's groups
 * being the child level's spans, with {@code sd_init()}'s parameters ({@link SchedDomain}); a level
 * whose span equals its child's is degenerate and dropped; isolated CPUs (isolcpus=domain) are left
 * out of every span and get no domains, as on a null domain; SD_ASYM_CPUCAPACITY where a span holds
 * CPUs of different capacities; {@code busy_factor} and the {@code imbalance_pct} of the levels
 * above the LLC from the parameter table ({@code topology.*}: v5.10 changed both); a NUMA level
 * farther than {@code topology.reclaim_distance} loses SD_BALANCE_FORK, SD_BALANCE_EXEC and
 * SD_WAKE_AFFINE.
 *
 * <p>Does not model: more than one NUMA level (distances), overlapping NUMA groups, cpusets'
 * partitioned root domains, rebuilding the domains at run time (hotplug).
 *
 * <p>Kernel reference: {@code kernel/sched/topology.c} ({@code build_sched_domains}, {@code
 * sd_init}, {@code sd_degenerate}), {@code arch/x86/kernel/smpboot.c} (the x86 topology levels).
 */
final class DomainBuilder {
  private DomainBuilder() {}

  static void build(Cpu[] cpus, BitSet housekeeping, ParamTable params) {
    int busyFactor = (int) params.get(Param.BUSY_FACTOR);
    int pctPkg = (int) params.get(Param.IMBALANCE_PCT_PKG);
    int pctNuma = (int) params.get(Param.IMBALANCE_PCT_NUMA);
    boolean numaFar = params.get(Param.NODE_DISTANCE) > params.get(Param.RECLAIM_DISTANCE);
    Map<String, BitSet> childSpans = new java.util.TreeMap<>(); // looked up only
    for (Cpu c : cpus) {
      if (!housekeeping.get(c.id)) {
        continue;
      }
      List<SchedDomain> levels = new ArrayList<>();
      BitSet childSpan = single(c.id);
      childSpan =
          level(
              levels,
              childSpans,
              "SMT",
              cpus,
              housekeeping,
              c,
              i -> cpus[i].coreId,
              childSpan,
              true,
              110,
              busyFactor);
      childSpan =
          level(
              levels,
              childSpans,
              "MC",
              cpus,
              housekeeping,
              c,
              i -> cpus[i].llcId,
              childSpan,
              true,
              117,
              busyFactor);
      childSpan =
          level(
              levels,
              childSpans,
              "PKG",
              cpus,
              housekeeping,
              c,
              i -> cpus[i].pkgId,
              childSpan,
              false,
              pctPkg,
              busyFactor);
      level(
          levels,
          childSpans,
          "NUMA",
          cpus,
          housekeeping,
          c,
          i -> 0,
          childSpan,
          false,
          pctNuma,
          busyFactor);
      c.domains = levels.toArray(new SchedDomain[0]);
      for (SchedDomain sd : c.domains) {
        sd.forkExecAffine = !(numaFar && sd.numa());
        long cap = -1;
        for (int i = sd.span.nextSetBit(0); i >= 0; i = sd.span.nextSetBit(i + 1)) {
          sd.asymCapacity |= cap >= 0 && cpus[i].capacityOrig != cap;
          cap = cpus[i].capacityOrig;
        }
      }
    }
    shareGroupCapacities(cpus);
  }

  /**
   * One {@link GroupCapacity} per group span, shared by every domain with a group of that span;
   * each CPU learns the groups it is in, to mark them stale when its own capacity changes.
   */
  private static void shareGroupCapacities(Cpu[] cpus) {
    Map<BitSet, GroupCapacity> bySpan = new LinkedHashMap<>(); // looked up only
    Map<Integer, List<GroupCapacity>> byCpu = new java.util.TreeMap<>();
    for (Cpu c : cpus) {
      for (SchedDomain sd : c.domains) {
        sd.groupCaps = new GroupCapacity[sd.groups.length];
        for (int g = 0; g < sd.groups.length; g++) {
          GroupCapacity gc = bySpan.get(sd.groups[g]);
          if (gc == null) {
            gc = new GroupCapacity(sd.groups[g], cpus);
            bySpan.put(sd.groups[g], gc);
            for (int i = CpuMasks.next(gc.mask, 0); i >= 0; i = CpuMasks.next(gc.mask, i + 1)) {
              byCpu.computeIfAbsent(i, x -> new ArrayList<>()).add(gc);
            }
          }
          sd.groupCaps[g] = gc;
        }
      }
    }
    byCpu.forEach((i, l) -> cpus[i].groupCaps = l.toArray(new GroupCapacity[0]));
  }

  private static BitSet single(int cpu) {
    BitSet b = new BitSet();
    b.set(cpu);
    return b;
  }

  /**
   * Adds the level grouping CPUs by {@code key} unless it is degenerate; returns the span reached.
   */
  private static BitSet level(
      List<SchedDomain> levels,
      Map<String, BitSet> childSpans,
      String name,
      Cpu[] cpus,
      BitSet hk,
      Cpu c,
      IntUnaryOperator key,
      BitSet childSpan,
      boolean shareLlc,
      int imbalancePct,
      int busyFactor) {
    BitSet span = new BitSet();
    int k = key.applyAsInt(c.id);
    for (int i = hk.nextSetBit(0); i >= 0; i = hk.nextSetBit(i + 1)) {
      if (key.applyAsInt(i) == k) {
        span.set(i);
      }
    }
    if (span.equals(childSpan)) {
      return childSpan;
    }
    // Groups: the spans of the child level, i.e. the previous level's key, within this span.
    SchedDomain child = levels.isEmpty() ? null : levels.get(levels.size() - 1);
    Map<BitSet, Boolean> groups = new LinkedHashMap<>();
    BitSet covered = new BitSet(); // a CPU's child span is that of any CPU already in it
    for (int i = span.nextSetBit(0); i >= 0; i = span.nextSetBit(i + 1)) {
      if (!covered.get(i)) {
        BitSet g = childSpanOf(cpus, hk, i, child, childSpans);
        covered.or(g);
        groups.put(g, Boolean.TRUE);
      }
    }
    levels.add(
        new SchedDomain(
            name,
            span,
            groups.keySet().toArray(new BitSet[0]),
            shareLlc || sameLlc(cpus, span),
            imbalancePct,
            busyFactor));
    return span;
  }

  private static boolean sameLlc(Cpu[] cpus, BitSet span) {
    int llc = cpus[span.nextSetBit(0)].llcId;
    for (int i = span.nextSetBit(0); i >= 0; i = span.nextSetBit(i + 1)) {
      if (cpus[i].llcId != llc) {
        return false;
      }
    }
    return true;
  }

  /**
   * The span CPU {@code i} has at the child level (its own CPU when there is none): a copy of the
   * span shared by every CPU with the same key at that level, computed once per build ({@code
   * spans}) rather than once per CPU and group.
   */
  private static BitSet childSpanOf(
      Cpu[] cpus, BitSet hk, int i, @Nullable SchedDomain child, Map<String, BitSet> spans) {
    if (child == null) {
      return single(i);
    }
    String n = child.name;
    IntUnaryOperator key =
        switch (n) {
          case "SMT" -> j -> cpus[j].coreId;
          case "MC" -> j -> cpus[j].llcId;
          case "PKG" -> j -> cpus[j].pkgId;
          default -> j -> 0;
        };
    int k = key.applyAsInt(i);
    BitSet s = spans.get(n + ":" + k);
    if (s == null) {
      s = new BitSet();
      for (int j = hk.nextSetBit(0); j >= 0; j = hk.nextSetBit(j + 1)) {
        if (key.applyAsInt(j) == k) {
          s.set(j);
        }
      }
      spans.put(n + ":" + k, s);
    }
    return (BitSet) s.clone();
  }
}
