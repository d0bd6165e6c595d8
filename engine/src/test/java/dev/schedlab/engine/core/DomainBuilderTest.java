package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.params.ParamTable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The domain builder, which computes each span's groups and flags once, against the domains defined
 * CPU by CPU: each level's span the housekeeping CPUs with the CPU's key, dropped when equal to the
 * child's, its groups the child level's spans of its CPUs in CPU order.
 */
class DomainBuilderTest {

  @Test
  void everyCpusDomainsMatchTheirDefinitionOnRandomTopologies() {
    SplittableRandom rng = new SplittableRandom(11);
    int domains = 0;
    for (int round = 0; round < 200; round++) {
      Cpu[] cpus = randomTopology(rng);
      BitSet hk = new BitSet();
      for (Cpu c : cpus) {
        if (rng.nextInt(8) != 0) { // about one in eight isolated
          hk.set(c.id);
        }
      }
      DomainBuilder.build(cpus, hk, ParamTable.defaults());
      for (Cpu c : cpus) {
        List<Expected> want = hk.get(c.id) ? expected(cpus, hk, c.id) : List.of();
        assertThat(c.domains).as("round %d, cpu %d", round, c.id).hasSize(want.size());
        for (int l = 0; l < want.size(); l++) {
          SchedDomain sd = c.domains[l];
          Expected e = want.get(l);
          String at = "round " + round + ", cpu " + c.id + ", " + e.name;
          assertThat(sd.name).as(at).isEqualTo(e.name);
          assertThat(sd.span).as(at).isEqualTo(e.span);
          assertThat(sd.spanMask).as(at).containsExactly(e.span.toLongArray());
          assertThat(sd.weight).as(at).isEqualTo(e.span.cardinality());
          assertThat(sd.groups).as(at).containsExactlyElementsOf(e.groups);
          assertThat(sd.shareLlc).as(at).isEqualTo(e.shareLlc);
          assertThat(sd.asymCapacity).as(at).isEqualTo(e.asym);
          for (int g = 0; g < sd.groups.length; g++) {
            assertThat(sd.groupCaps[g].mask).as(at).containsExactly(e.groups.get(g).toLongArray());
          }
          domains++;
        }
      }
    }
    assertThat(domains).isGreaterThan(1000);
  }

  @Test
  void theCpusOfOneSpanShareItsMaskButNotTheirBalancingState() {
    SplittableRandom rng = new SplittableRandom(1);
    Cpu[] cpus = new Cpu[16]; // 2 packages x 4 cores x SMT2, one LLC per package
    for (int i = 0; i < cpus.length; i++) {
      cpus[i] = cpu(i, i / 2, i / 8, i / 8, 1024);
    }
    BitSet hk = new BitSet();
    hk.set(0, cpus.length);
    DomainBuilder.build(cpus, hk, ParamTable.defaults());
    int a = rng.nextInt(8);
    int b = (a + 1 + rng.nextInt(7)) % 8; // another CPU of the package
    for (int l = 0; l < 3; l++) {
      SchedDomain da = cpus[a].domains[l];
      SchedDomain db = cpus[b].domains[l];
      assertThat(da).isNotSameAs(db);
      if (l > 0 || a / 2 == b / 2) {
        assertThat(da.spanMask).isSameAs(db.spanMask);
      }
    }
  }

  private record Expected(
      String name, BitSet span, List<BitSet> groups, boolean shareLlc, boolean asym) {}

  /** CPU {@code id}'s domains as the definition gives them. */
  private static List<Expected> expected(Cpu[] cpus, BitSet hk, int id) {
    String[] names = {"SMT", "MC", "PKG", "NUMA"};
    IntUnaryOperator[] keys = {
      i -> cpus[i].coreId, i -> cpus[i].llcId, i -> cpus[i].pkgId, i -> 0,
    };
    List<Expected> out = new ArrayList<>();
    BitSet childSpan = new BitSet();
    childSpan.set(id);
    IntUnaryOperator childKey = null;
    for (int l = 0; l < names.length; l++) {
      BitSet span = with(cpus, hk, keys[l], keys[l].applyAsInt(id));
      if (span.equals(childSpan)) {
        continue;
      }
      List<BitSet> groups = new ArrayList<>();
      BitSet covered = new BitSet();
      boolean sameLlc = true;
      boolean asym = false;
      for (int i = span.nextSetBit(0); i >= 0; i = span.nextSetBit(i + 1)) {
        if (!covered.get(i)) {
          BitSet g = new BitSet();
          if (childKey == null) {
            g.set(i);
          } else {
            g = with(cpus, hk, childKey, childKey.applyAsInt(i));
          }
          covered.or(g);
          groups.add(g);
        }
        sameLlc &= cpus[i].llcId == cpus[id].llcId;
        asym |= cpus[i].capacityOrig != cpus[span.nextSetBit(0)].capacityOrig;
      }
      out.add(new Expected(names[l], span, groups, l < 2 || sameLlc, asym));
      childSpan = span;
      childKey = keys[l];
    }
    return out;
  }

  private static BitSet with(Cpu[] cpus, BitSet hk, IntUnaryOperator key, int k) {
    BitSet s = new BitSet();
    for (int i = hk.nextSetBit(0); i >= 0; i = hk.nextSetBit(i + 1)) {
      if (key.applyAsInt(i) == k) {
        s.set(i);
      }
    }
    return s;
  }

  /** 1-4 packages of 1-3 LLCs of 1-4 cores of 1-2 threads, capacities 1024 or (rarely) 512. */
  private static Cpu[] randomTopology(SplittableRandom rng) {
    List<Cpu> cpus = new ArrayList<>();
    int core = 0;
    int llc = 0;
    for (int p = 0, pkgs = 1 + rng.nextInt(4); p < pkgs; p++) {
      for (int l = 0, llcs = 1 + rng.nextInt(3); l < llcs; l++, llc++) {
        for (int c = 0, cores = 1 + rng.nextInt(4); c < cores; c++, core++) {
          long cap = rng.nextInt(6) == 0 ? 512 : 1024;
          for (int t = 0, threads = 1 + rng.nextInt(2); t < threads; t++) {
            cpus.add(cpu(cpus.size(), core, llc, p, cap));
          }
        }
      }
    }
    return cpus.toArray(new Cpu[0]);
  }

  private static Cpu cpu(int id, int core, int llc, int pkg, long capacity) {
    Cpu c =
        new Cpu(
            id,
            core,
            llc,
            pkg,
            pkg,
            false,
            new dev.schedlab.engine.sim.Event(EventLoop.EV_PHASE, id, null),
            new dev.schedlab.engine.sim.Event(EventLoop.EV_TICK, id, null),
            new dev.schedlab.engine.sim.Event(EventLoop.EV_IPI_RESCHED, id, null),
            new dev.schedlab.engine.sim.Event(EventLoop.EV_IPI_CALL, id, null));
    c.capacityOrig = capacity;
    return c;
  }
}
