package dev.schedlab.examples.wvtime;

import dev.schedlab.api.Policy;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.TaskState;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/**
 * The least of an engine a class unit test needs: CPUs that are idle or not, runqueues that know
 * their CPU, services that record reschedule requests, and tasks. No simulation.
 */
final class FakeKernel {
  final int nrCpus;
  final boolean[] idle;
  final List<String> resched = new ArrayList<>();
  final MachineView machine;
  final SchedServices services;

  FakeKernel(int nrCpus) {
    this.nrCpus = nrCpus;
    this.idle = new boolean[nrCpus];
    this.machine = fake(MachineView.class, (name, args) -> switch (name) {
      case "nrCpus" -> nrCpus;
      case "cpu" -> cpu((Integer) args[0]);
      case "tickNs" -> 4_000_000L;
      case "hz" -> 250;
      default -> throw new UnsupportedOperationException(name);
    });
    this.services = fake(SchedServices.class, (name, args) -> switch (name) {
      case "resched" -> {
        resched.add(args[0] + ":" + (ReschedReason) args[1]);
        yield null;
      }
      case "machine" -> machine;
      default -> throw new UnsupportedOperationException(name);
    });
  }

  RqView rq(int cpu) {
    return fake(RqView.class, (name, args) -> switch (name) {
      case "cpu" -> cpu;
      default -> throw new UnsupportedOperationException(name);
    });
  }

  private CpuView cpu(int id) {
    return fake(CpuView.class, (name, args) -> switch (name) {
      case "id" -> id;
      case "isIdle" -> idle[id];
      default -> throw new UnsupportedOperationException(name);
    });
  }

  interface Answer {
    Object answer(String method, Object[] args);
  }

  @SuppressWarnings("unchecked")
  private static <T> T fake(Class<T> type, Answer answer) {
    return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (proxy, m, args) -> m.getName().equals("toString") ? type.getSimpleName()
            : answer.answer(m.getName(), args));
  }

  /** A task with a pid, a weight and an affinity mask (all CPUs when empty). */
  static final class Task implements TaskView {
    private final int pid;
    private final int weight;
    private final int[] allowed;
    private Object classData;
    long ranNs;

    Task(int pid, int weight, int... allowed) {
      this.pid = pid;
      this.weight = weight;
      this.allowed = allowed;
    }

    @Override public int pid() { return pid; }
    @Override public String comm() { return "t" + pid; }
    @Override public Policy policy() { return Policy.EXT; }
    @Override public int nice() { return 0; }
    @Override public int weight() { return weight; }
    @Override public int rtPriority() { return 0; }
    @Override public long dlRuntimeNs() { return 0; }
    @Override public long dlDeadlineNs() { return 0; }
    @Override public long dlPeriodNs() { return 0; }
    @Override public long customSliceNs() { return 0; }
    @Override public int cpu() { return 0; }

    @Override
    public boolean allowedOn(int cpu) {
      if (allowed.length == 0) {
        return true;
      }
      for (int c : allowed) {
        if (c == cpu) {
          return true;
        }
      }
      return false;
    }

    @Override public int nrAllowed() { return allowed.length; }
    @Override public TaskState state() { return TaskState.RUNNING; }
    @Override public boolean onRq() { return true; }
    @Override public boolean onCpu() { return false; }
    @Override public boolean isKthread() { return false; }
    @Override public boolean isIdleTask() { return false; }
    @Override public int mmId() { return 1; }
    @Override public long sumExecNs() { return ranNs; }
    @Override public Object classData() { return classData; }
    @Override public void setClassData(Object data) { classData = data; }
  }
}
