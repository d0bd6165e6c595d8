package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.StepSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the lock operations of a program against the declared locks, with the rules the kernel's
 * lockdep and might_sleep() debugging enforce at run time: a spinlock is released in the kernel
 * path that took it (never held in user mode), nothing sleeps or reschedules while one is held, and
 * the API variant fits the lock ({@code mode: read} on rw_semaphores, {@code irqs_off} on
 * spinlocks).
 */
public final class LockCheck {
  private LockCheck() {}

  /**
   * Checks {@code program}.
   *
   * @throws IllegalArgumentException naming the lock and the rule broken
   */
  public static void check(List<StepSpec> program, Map<String, LockSpec> locks) {
    check(program, locks, newCheckedSet());
  }

  /** A set for {@link #check(List, Map, Set)}: step instances by identity. */
  public static Set<StepSpec> newCheckedSet() {
    return Collections.newSetFromMap(new IdentityHashMap<>());
  }

  /**
   * Checks {@code program}, skipping the kernel paths, syscalls, loops and picks in {@code checked}
   * (step instances that passed already: generated programs reuse one instance in many places and
   * tasks) and adding those it checks.
   */
  public static void check(
      List<StepSpec> program, Map<String, LockSpec> locks, Set<StepSpec> checked) {
    for (StepSpec s : program) {
      if (checked.contains(s)) {
        continue;
      }
      if (s instanceof StepSpec.Loop l) {
        check(l.body(), locks, checked);
      } else if (s instanceof StepSpec.Pick p) {
        p.choices().forEach(choice -> check(choice, locks, checked));
      } else if (s instanceof StepSpec.Kernel k) {
        kernelPath(k.segments(), locks);
      } else if (s instanceof StepSpec.Syscall sc) {
        syscallParts(sc.parts(), locks, checked);
      } else {
        continue; // a step with no lock operation
      }
      checked.add(s);
    }
  }

  private static void syscallParts(
      List<StepSpec> parts, Map<String, LockSpec> locks, Set<StepSpec> checked) {
    for (StepSpec part : parts) {
      if (part instanceof StepSpec.Kernel k) {
        kernelPath(k.segments(), locks); // no spinlock across a wake, block or loop part
      } else if (part instanceof StepSpec.Loop l && checked.add(l)) {
        syscallParts(l.body(), locks, checked);
      }
    }
  }

  private static void kernelPath(List<StepSpec.Segment> segs, Map<String, LockSpec> locks) {
    List<String> spinHeld = new ArrayList<>();
    for (StepSpec.Segment seg : segs) {
      StepSpec.LockAction a = seg.lock();
      if (a == null) {
        if (!spinHeld.isEmpty() && !"NONE".equals(seg.endsWith())) {
          throw new IllegalArgumentException(
              "a segment ends in "
                  + seg.endsWith().toLowerCase(java.util.Locale.ROOT)
                  + " while spinlock "
                  + spinHeld.get(spinHeld.size() - 1)
                  + " is held (a point that may sleep, in atomic context)");
        }
        continue;
      }
      LockSpec l = locks.get(a.lock());
      if (l == null) {
        throw new IllegalArgumentException(
            "lock "
                + a.lock()
                + " is not declared; declare it under "
                + "workload.locks (known: "
                + String.join(", ", locks.keySet())
                + ")");
      }
      boolean spin = l.kind() == LockSpec.Kind.SPINLOCK || l.kind() == LockSpec.Kind.RAW_SPINLOCK;
      if (a.read() && l.kind() != LockSpec.Kind.RWSEM) {
        throw new IllegalArgumentException(
            "lock "
                + l.name()
                + ": mode read applies to rwsem only ("
                + l.name()
                + " is a "
                + l.kind().label()
                + ")");
      }
      if (a.irqsOff() && !spin) {
        throw new IllegalArgumentException(
            "lock "
                + l.name()
                + ": irqs_off applies to spinlocks only ("
                + l.name()
                + " is a "
                + l.kind().label()
                + ")");
      }
      if (!a.acquire()) {
        if (spin && !spinHeld.remove(l.name())) {
          throw new IllegalArgumentException(
              "unlock of spinlock " + l.name() + " that this kernel path did not take");
        }
        continue;
      }
      if (spinHeld.contains(l.name())) {
        throw new IllegalArgumentException("spinlock " + l.name() + " taken twice (self-deadlock)");
      }
      if (!spin && !spinHeld.isEmpty()) {
        throw new IllegalArgumentException(
            "sleeping lock "
                + l.name()
                + " taken while spinlock "
                + spinHeld.get(spinHeld.size() - 1)
                + " is held");
      }
      if (spin) {
        spinHeld.add(l.name());
      }
    }
    if (!spinHeld.isEmpty()) {
      throw new IllegalArgumentException(
          "spinlock " + spinHeld.get(0) + " is still held when the kernel path returns to user");
    }
  }
}
