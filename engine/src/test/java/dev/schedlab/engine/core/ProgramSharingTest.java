package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.kernel;
import static dev.schedlab.engine.core.Steps.lockIrqsOff;
import static dev.schedlab.engine.core.Steps.loop;
import static dev.schedlab.engine.core.Steps.segment;
import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.syscall;
import static dev.schedlab.engine.core.Steps.unlock;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.StepSpec.Segment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Compiled programs are shared: a loop runs as a body of its own (a LOOP op), a step instance met
 * again reuses its ops, and equal programs built apart get one op array. None of it may change a
 * run: a program built from one shared instance per step runs exactly as the same program built
 * from fresh copies, and nested loops exactly as the steps written out.
 */
class ProgramSharingTest {
  /** A page of a kernel walk: a step, then a short section under the spinlock z. */
  private static StepSpec page() {
    return kernel(
        new Segment(Dist.uniform(100, 300), true, false, "COND_RESCHED"),
        lockIrqsOff("z"),
        segment(Dist.uniform(50, 150)),
        unlock("z"));
  }

  /** Two syscalls of page walks, user time and a sleep, built by {@code page}. */
  private static List<StepSpec> program(Supplier<StepSpec> page, boolean loops) {
    List<StepSpec> out = new ArrayList<>();
    out.add(user(Dist.exp(2 * US)));
    if (loops) {
      out.add(loop(2, syscall(loop(3, page.get())), user(Dist.exp(US)), loop(2, page.get())));
    } else {
      for (int i = 0; i < 2; i++) {
        out.add(syscall(page.get(), page.get(), page.get()));
        out.add(user(Dist.exp(US)));
        out.add(page.get());
        out.add(page.get());
      }
    }
    out.add(sleep(50 * US));
    return out;
  }

  private static Kernel build(List<StepSpec> a, List<StepSpec> b) {
    return TestRun.run()
        .duration(20 * MS)
        .cpus(1, 2, 2)
        .lock("z", LockSpec.Kind.SPINLOCK)
        .tasks(task("a").count(2).program(a.toArray(StepSpec[]::new)))
        .tasks(task("b").count(2).program(b.toArray(StepSpec[]::new)))
        .kernel();
  }

  private static Kernel run(List<StepSpec> a, List<StepSpec> b) {
    Kernel k = build(a, b);
    k.run(20_000_000);
    return k;
  }

  @Test
  void sharedStepInstancesRunAsFreshCopies() {
    StepSpec one = page();
    Kernel shared = run(program(() -> one, false), program(() -> one, true));
    Kernel fresh =
        run(program(ProgramSharingTest::page, false), program(ProgramSharingTest::page, true));
    assertThat(shared.events()).isGreaterThan(1000);
    assertThat(shared.digest()).isEqualTo(fresh.digest());
    assertThat(shared.metricsSnapshot().get("lock_stat"))
        .isEqualTo(fresh.metricsSnapshot().get("lock_stat"));
  }

  @Test
  void nestedLoopsRunAsTheStepsWrittenOut() {
    StepSpec one = page();
    Kernel written = run(program(() -> one, false), program(() -> one, false));
    Kernel looped = run(program(() -> one, true), program(() -> one, true));
    assertThat(looped.events()).isGreaterThan(1000);
    assertThat(looped.digest()).isEqualTo(written.digest());
  }

  @Test
  void equalProgramsBuiltApartShareOneOpArray() {
    Kernel k =
        build(program(ProgramSharingTest::page, true), program(ProgramSharingTest::page, true));
    Task a = k.tasks.get(0);
    Task b = k.tasks.get(2);
    assertThat(a.comm).startsWith("a");
    assertThat(b.comm).startsWith("b");
    assertThat(b.program).isSameAs(a.program);
    // the outer loop holds a syscall with a loop: two levels of loop state per task
    assertThat(a.loopLeft).hasSize(2);
    Op outer = a.program[1];
    assertThat(outer.code).isEqualTo(Op.LOOP);
    assertThat(outer.count).isEqualTo(2);
    assertThat(outer.nesting).isEqualTo(2);
  }

  /** Three kinds of page: a plain walk, one under the lock, a longer walk. */
  private static List<List<StepSpec>> kinds() {
    return List.of(
        List.of(page()),
        List.of(syscall(page(), page()), user(Dist.exp(US))),
        List.of(kernel(segment(Dist.uniform(500, 900)))));
  }

  /** The kinds of {@code drawn} written out, each followed by user time, then a sleep. */
  private static List<StepSpec> writtenOut(List<Integer> drawn) {
    List<StepSpec> out = new ArrayList<>();
    for (int v : drawn) {
      out.addAll(kinds().get(v));
    }
    out.add(user(Dist.exp(2 * US)));
    out.add(sleep(50 * US));
    return out;
  }

  /** {@link #writtenOut} as a pick over the task's draws {@code d} (in a loop of one). */
  private static List<StepSpec> picked() {
    return List.of(
        loop(1, new StepSpec.Pick("d", kinds())), user(Dist.exp(2 * US)), sleep(50 * US));
  }

  @Test
  void picksRunAsTheDrawnChoicesWrittenOutAndTasksThatDrewApartShareOneProgram() {
    List<Integer> drawnA = List.of(2, 0, 0, 1, 2, 1);
    List<Integer> drawnB = List.of(1, 1, 0);
    Kernel written =
        TestRun.run()
            .duration(20 * MS)
            .cpus(1, 2, 2)
            .lock("z", LockSpec.Kind.SPINLOCK)
            .tasks(task("a").program(writtenOut(drawnA).toArray(StepSpec[]::new)))
            .tasks(task("b").program(writtenOut(drawnB).toArray(StepSpec[]::new)))
            .kernel();
    written.run(20_000_000);
    StepSpec[] prog = picked().toArray(StepSpec[]::new);
    Kernel picked =
        TestRun.run()
            .duration(20 * MS)
            .cpus(1, 2, 2)
            .lock("z", LockSpec.Kind.SPINLOCK)
            .tasks(task("a").program(prog).draws(java.util.Map.of("d", drawnA)))
            .tasks(task("b").program(prog).draws(java.util.Map.of("d", drawnB)))
            .kernel();
    assertThat(picked.tasks.get(1).program).isSameAs(picked.tasks.get(0).program);
    picked.run(20_000_000);
    assertThat(picked.events()).isGreaterThan(1000);
    assertThat(picked.digest()).isEqualTo(written.digest());
  }

  @Test
  void aDrawThatIsNoChoiceIsRefusedAtSetUp() {
    StepSpec[] prog = picked().toArray(StepSpec[]::new);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                TestRun.run()
                    .cpus(1, 1, 1)
                    .lock("z", LockSpec.Kind.SPINLOCK)
                    .tasks(task("a").program(prog).draws(java.util.Map.of("d", List.of(0, 3))))
                    .kernel())
        .hasMessageContaining("draw 3 of d");
  }

  @Test
  void aStepMetAgainReusesItsOps() {
    StepSpec one = page();
    Kernel k = build(program(() -> one, false), program(ProgramSharingTest::page, false));
    Op[] a = k.tasks.get(0).program;
    Op[] b = k.tasks.get(2).program;
    // equal programs, one built from a single page instance, one from fresh pages: the same ops
    assertThat(b).isSameAs(a);
    // the page's entry, segments and exit after the first syscall are the ones of the second
    int firstPage = 1 + 14 + 1; // user, a syscall (entry, three pages of four segments, exit), user
    assertThat(a[firstPage].code).isEqualTo(Op.SYSCALL_ENTER);
    for (int i = 0; i < 6; i++) {
      assertThat(a[firstPage + 6 + i]).isSameAs(a[firstPage + i]);
    }
  }
}
