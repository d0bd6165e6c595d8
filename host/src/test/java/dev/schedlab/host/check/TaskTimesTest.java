package dev.schedlab.host.check;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The model's per-task run time and migrations, counted from a window's start. */
class TaskTimesTest {
  private static void sw(TaskTimes t, long at, int cpu, int prev, int next) {
    t.schedSwitch(at, cpu, "p" + prev, prev, 120, 'R', "hog", next, 120);
  }

  @Test
  void countsRunTimeAndCpuChangesFromTheWindowsStart() {
    TaskTimes t = new TaskTimes(100);
    sw(t, 0, 0, 0, 7); // on CPU 0 from 0 ...
    sw(t, 50, 0, 7, 0); // ... off at 50: before the window, nothing counted
    sw(t, 80, 1, 0, 7); // on CPU 1 at 80: a move before the window, not counted
    sw(t, 150, 1, 7, 8); // 50 ns counted from 100
    sw(t, 200, 0, 0, 7); // a move inside the window
    sw(t, 260, 0, 7, 0); // 60 ns
    sw(t, 300, 0, 0, 7); // still on CPU 0 at the end: 100 ns to 400
    TaskTimes.Task hog = t.tasks(400).get(7);
    assertThat(hog.runNs).isEqualTo(50 + 60 + 100);
    assertThat(hog.migrations).isEqualTo(1);
    assertThat(t.tasks(400).get(8).runNs).isEqualTo(250); // on CPU 1 from 150 to the end
    assertThat(t.tasks(400)).doesNotContainKey(0); // the idle task is not a task here
  }
}
