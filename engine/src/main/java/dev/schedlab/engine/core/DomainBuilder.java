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
 * <p>Each CPU has its own domains (their balancing state is per CPU), but the CPUs of one span
 * share its mask, its groups and the flags derived from them ({@link Shape}), each computed once
 * per distinct span, so the build takes time linear in the CPUs times the levels' groups rather
 * than quadratic in the CPUs.
 *
 * <p>Does not model: more than one NUMA level (distances), overlapping NUMA groups, cpusets'
 * partitioned root domains, rebuilding the domains at run time (hotplug).
 *
 * <p>Kernel reference: {@code kernel/sched/topology.c} ({@code build_sched_domains}, {@code
 * sd_init}, {@code sd_degenerate}), {@code arch/x86/kernel/smpboot.c} (the x86 topology levels).
 */
final class DomainBuilder {
  private DomainBuilder() {}

  /** A topology level: the CPUs with the same key share its span. */
  private record Level(
      int index, String name, IntUnaryOperator key, boolean shareLlc, int imbalancePct) {}

  /** What the domains of one level, span and child level have in common. */
  private static final class Shape {
    final BitSet span;
    final long[] spanMask;
    final BitSet[] groups;
    final boolean sameLlc;
    final boolean asymCapacity;

    Shape(BitSet span, BitSet[] groups, boolean sameLlc, boolean asymCapacity) {
      this.span = span;
      this.spanMask = span.toLongArray();
      this.groups = groups;
      this.sameLlc = sameLlc;
      this.asymCapacity = asymCapacity;
    }
  }

  /** A shape's identity: the level, the key of its span, and the child level (-1: none). */
  private record ShapeKey(int level, int key, int child) {}

  static void build(Cpu[] cpus, BitSet housekeeping, ParamTable params) {
    int busyFactor = (int) params.get(Param.BUSY_FACTOR);
    boolean numaFar = params.get(Param.NODE_DISTANCE) > params.get(Param.RECLAIM_DISTANCE);
    Level[] levels = {
      new Level(0, "SMT", i -> cpus[i].coreId, true, 110),
      new Level(1, "MC", i -> cpus[i].llcId, true, 117),
      new Level(2, "PKG", i -> cpus[i].pkgId, false, (int) params.get(Param.IMBALANCE_PCT_PKG)),
      new Level(3, "NUMA", i -> 0, false, (int) params.get(Param.IMBALANCE_PCT_NUMA)),
    };
    List<Map<Integer, BitSet>> spans = new ArrayList<>();
    for (Level l : levels) {
      spans.add(spansByKey(housekeeping, l.key()));
    }
    Map<ShapeKey, Shape> shapes = new LinkedHashMap<>(); // looked up only
    for (Cpu c : cpus) {
      if (!housekeeping.get(c.id)) {
        continue;
      }
      List<SchedDomain> domains = new ArrayList<>();
      BitSet childSpan = single(c.id);
      Level child = null;
      for (Level l : levels) {
        int k = l.key().applyAsInt(c.id);
        BitSet span = spans.get(l.index()).get(k);
        if (span == null || span.equals(childSpan)) {
          continue; // degenerate
        }
        Level ch = child;
        Shape s =
            shapes.computeIfAbsent(
                new ShapeKey(l.index(), k, ch == null ? -1 : ch.index()),
                x -> shape(cpus, span, ch, spans));
        SchedDomain sd =
            new SchedDomain(
                l.name(),
                s.span,
                s.spanMask,
                s.groups,
                l.shareLlc() || s.sameLlc,
                l.imbalancePct(),
                busyFactor);
        sd.asymCapacity = s.asymCapacity;
        sd.forkExecAffine = !(numaFar && sd.numa());
        domains.add(sd);
        childSpan = span;
        child = l;
      }
      c.domains = domains.toArray(new SchedDomain[0]);
    }
    shareGroupCapacities(cpus);
  }

  /** Each key's span: the housekeeping CPUs with that key. */
  private static Map<Integer, BitSet> spansByKey(BitSet hk, IntUnaryOperator key) {
    Map<Integer, BitSet> byKey = new LinkedHashMap<>(); // looked up only
    for (int i = hk.nextSetBit(0); i >= 0; i = hk.nextSetBit(i + 1)) {
      byKey.computeIfAbsent(key.applyAsInt(i), x -> new BitSet()).set(i);
    }
    return byKey;
  }

  /**
   * The groups of a span (the child level's spans within it, one CPU each without a child level),
   * whether it lies in one LLC and whether its CPUs differ in capacity.
   */
  private static Shape shape(
      Cpu[] cpus, BitSet span, @Nullable Level child, List<Map<Integer, BitSet>> spans) {
    List<BitSet> groups = new ArrayList<>();
    BitSet covered = new BitSet(); // a CPU's child span is that of any CPU already in it
    int llc = cpus[span.nextSetBit(0)].llcId;
    boolean sameLlc = true;
    boolean asym = false;
    long cap = -1;
    for (int i = span.nextSetBit(0); i >= 0; i = span.nextSetBit(i + 1)) {
      if (!covered.get(i)) {
        BitSet g =
            child == null ? single(i) : spans.get(child.index()).get(child.key().applyAsInt(i));
        covered.or(g);
        groups.add(g);
      }
      sameLlc &= cpus[i].llcId == llc;
      asym |= cap >= 0 && cpus[i].capacityOrig != cap;
      cap = cpus[i].capacityOrig;
    }
    return new Shape(span, groups.toArray(new BitSet[0]), sameLlc, asym);
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
}
