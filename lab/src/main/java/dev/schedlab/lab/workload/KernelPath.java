package dev.schedlab.lab.workload;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.StepSpec.Segment;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One syscall's kernel path under construction: segments in order, and repeated chunks (a page's
 * fault, a PMD's zap, a batch's free) kept once with a count, so that a path over N pages is as
 * large as its distinct steps, not as N. A chunk repeated right after an identical one extends the
 * same loop. Unrolled, the path is the same sequence of segments as one written out in full.
 */
final class KernelPath {
  private final List<StepSpec> parts = new ArrayList<>();
  private List<Segment> straight = new ArrayList<>();

  /** The chunk being repeated and how often, or null. */
  private @Nullable List<StepSpec> run;

  private long runCount;

  /** Appends segments. */
  KernelPath add(Segment... segs) {
    endRun();
    straight.addAll(List.of(segs));
    return this;
  }

  /** Appends {@code body} {@code times} times (nothing when {@code times <= 0}). */
  KernelPath repeat(long times, KernelPath body) {
    List<StepSpec> b = body.parts();
    if (times <= 0 || b.isEmpty()) {
      return this;
    }
    if (b.equals(run)) {
      runCount += times;
      return this;
    }
    endRun();
    run = b;
    runCount = times;
    return this;
  }

  /** Appends another path once. */
  KernelPath then(KernelPath other) {
    return repeat(1, other);
  }

  /** The path's parts: kernel segments and loops of them. */
  List<StepSpec> parts() {
    endRun();
    closeStraight();
    return List.copyOf(parts);
  }

  /** The path as a syscall step: entry, the parts, exit to user. */
  StepSpec syscall() {
    List<StepSpec> p = parts();
    return p.size() == 1 && p.get(0) instanceof StepSpec.Kernel k ? k : new StepSpec.Syscall(p);
  }

  private void endRun() {
    if (run == null) {
      return;
    }
    for (long left = runCount; left > 0; ) {
      int n = (int) Math.min(left, Integer.MAX_VALUE);
      if (n == 1) {
        inline(run);
      } else {
        closeStraight();
        parts.add(new StepSpec.Loop(n, run));
      }
      left -= n;
    }
    run = null;
  }

  /** Parts run once: kernel segments join the straight run, loops stay loops. */
  private void inline(List<StepSpec> once) {
    for (StepSpec part : once) {
      if (part instanceof StepSpec.Kernel k) {
        straight.addAll(k.segments());
      } else {
        closeStraight();
        parts.add(part);
      }
    }
  }

  private void closeStraight() {
    if (!straight.isEmpty()) {
      parts.add(new StepSpec.Kernel(straight));
      straight = new ArrayList<>();
    }
  }
}
