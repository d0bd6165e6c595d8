package dev.schedlab.engine.core;

import dev.schedlab.engine.config.LockSpec;
import java.util.HashMap;
import java.util.Map;

/**
 * A declared lock ({@link LockSpec}): its kind, its statistics and its instances, one for the
 * machine, per NUMA node, per CPU or per process. A task takes the instance of the CPU it runs on
 * (or of its mm) at the moment it locks.
 */
final class LockClass {
  final String name;
  final LockSpec.Kind kind;
  final LockSpec.Scope scope;
  final LockStat stat;
  private final int index;
  private final Cpu[] cpus;
  private final KLock[] fixed;
  private final Map<Integer, KLock> byMm = new HashMap<>();

  LockClass(LockSpec spec, int index, Cpu[] cpus) {
    this.name = spec.name();
    this.kind = spec.kind();
    this.scope = spec.scope();
    this.stat = new LockStat(name);
    this.index = index;
    this.cpus = cpus;
    int n = 0;
    for (Cpu c : cpus) {
      n = Math.max(n, c.nodeId + 1);
    }
    this.fixed =
        new KLock[scope == LockSpec.Scope.CPU ? cpus.length : scope == LockSpec.Scope.NODE ? n : 1];
  }

  /** The instance {@code t} takes on {@code cpu}. */
  KLock instance(Cpu cpu, Task t) {
    switch (scope) {
      case PROCESS -> {
        return byMm.computeIfAbsent(t.mmId, id -> create(byMm.size(), cpu));
      }
      case CPU -> {
        return fixed(cpu.id, cpu);
      }
      case NODE -> {
        return fixed(cpu.nodeId, firstOfNode(cpu.nodeId));
      }
      default -> {
        return fixed(0, cpus[0]);
      }
    }
  }

  private KLock fixed(int i, Cpu home) {
    KLock l = fixed[i];
    if (l == null) {
      l = create(i, home);
      fixed[i] = l;
    }
    return l;
  }

  private KLock create(int instance, Cpu home) {
    // A kernel-looking address: class in bits 16+, instance in 64-byte steps.
    return new KLock(
        this, 0xffff888100000000L + ((long) index << 20) + ((long) instance << 6), home);
  }

  private Cpu firstOfNode(int node) {
    for (Cpu c : cpus) {
      if (c.nodeId == node) {
        return c;
      }
    }
    return cpus[0];
  }
}
