package dev.schedlab.engine.core;

import dev.schedlab.api.CallFunction;
import dev.schedlab.api.Counter;
import dev.schedlab.api.DeferKind;
import dev.schedlab.api.DeferredWork;
import dev.schedlab.api.IpiPath;
import dev.schedlab.api.ReschedBit;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.TimerCallback;
import dev.schedlab.api.TimerHandle;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.IdleStateView;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.SchedDomainView;
import dev.schedlab.api.view.TaskView;
import dev.schedlab.engine.params.Param;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What scheduling classes, idle policies and plugins see of the kernel: the {@link SchedServices}
 * they call and the {@link MachineView} they read, both answered from the {@link Kernel}'s state.
 * The engine's own classes use the kernel directly; only code behind the API comes through here.
 */
final class KernelServices implements SchedServices, MachineView {
  private final Kernel k;

  KernelServices(Kernel k) {
    this.k = k;
  }

  // ---------------- SchedServices ----------------
  @Override
  public long jiffies() {
    return k.jiffies();
  }

  @Override
  public long now() {
    return k.now;
  }

  @Override
  public MachineView machine() {
    return this;
  }

  @Override
  public void resched(int cpu, ReschedReason reason) {
    k.sched.resched(k.cpus[cpu], reason);
  }

  @Override
  public void setResched(int cpu, ReschedBit bit) {
    k.sched.setResched(k.cpus[cpu], bit);
  }

  @Override
  public void callFunction(int target, long costNs, CallFunction fn) {
    k.irqs.callFunction(k.cpus[k.thisCpu], k.cpus[target], costNs, fn, null, IpiPath.CALL_FUNCTION);
  }

  @Override
  public void defer(
      DeferKind kind, TaskView owner, int cpu, long costNs, long delayNs, DeferredWork work) {
    if (kind != DeferKind.TASK_WORK) {
      k.deferred.submit(kind, cpu, costNs, delayNs, work);
      return;
    }
    Task t = (Task) owner;
    t.addTaskWork(
        (task, c) -> {
          work.run(c);
          return costNs;
        });
  }

  @Override
  public long param(String key) {
    return k.costs.param(key);
  }

  @Override
  public dev.schedlab.api.hook.MmCidControl mmCid() {
    return k.mmCid;
  }

  @Override
  public Counter counter(String name) {
    return k.metrics.counter(name);
  }

  @Override
  public TimerHandle newTimer(int cpu, TimerCallback callback) {
    return new HrTimer(k, cpu, callback, null);
  }

  @Override
  public void completeDelayedDequeue(TaskView p) {
    Task t = (Task) p;
    if (!t.onRq || !t.delayed) {
      throw new IllegalStateException(
          "completeDelayedDequeue of a task not " + (t.onRq ? "delayed" : "queued") + ": " + t);
    }
    t.onRq = false;
    k.sched.removeQueued(k.cpus[t.cpu], t); // still delayed: no longer counted as runnable
    t.delayed = false;
  }

  // ---------------- MachineView ----------------
  @Override
  public int nrCpus() {
    return k.cpus.length;
  }

  @Override
  public CpuView cpu(int id) {
    return k.cpus[id];
  }

  @Override
  public int llcWeight(int cpu) {
    return k.llcShared.llcCpus[k.cpus[cpu].llcId].length;
  }

  @Override
  public int llcCpu(int cpu, int i) {
    return k.llcShared.llcCpus[k.cpus[cpu].llcId][i];
  }

  @Override
  public boolean cpuIdle(int cpu) {
    return CpuMasks.test(k.idleCpus, cpu);
  }

  @Override
  public int nextIdleCpu(SchedDomainView sd, int from) {
    return sd instanceof SchedDomain d
        ? CpuMasks.nextAnd(d.spanMask, k.idleCpus, from)
        : MachineView.super.nextIdleCpu(sd, from);
  }

  @Override
  public int llcIdleCpus(int cpu) {
    return k.llcShared.llcIdle[k.cpus[cpu].llcId];
  }

  @Override
  public java.util.List<? extends dev.schedlab.api.view.TaskGroupView> taskGroups() {
    return k.taskGroups.size() <= 1 ? java.util.List.of() : k.taskGroups;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <H> @Nullable H hook(Class<H> type) {
    if (type == dev.schedlab.api.hook.PeltHook.class) {
      return (H) k.ext.pelt();
    }
    if (type == dev.schedlab.api.hook.SelectTaskRqHook.class) {
      return (H) k.ext.selectTaskRq();
    }
    if (type == dev.schedlab.api.hook.LoadBalanceHook.class) {
      return (H) k.ext.loadBalance();
    }
    return null;
  }

  @Override
  public void changeNrRunning(int cpu, int delta) {
    Cpu c = k.cpus[cpu];
    int before = c.nrRunning;
    c.nrRunning += delta;
    c.idleChanged();
    k.balancer.nrRunningChanged(c, before);
  }

  @Override
  public int nrDomains(int cpu) {
    return k.cpus[cpu].domains.length;
  }

  @Override
  public dev.schedlab.api.view.SchedDomainView domain(int cpu, int level) {
    return k.cpus[cpu].domains[level];
  }

  @Override
  public int smtWeight(int cpu) {
    return k.cpus[cpu].siblings.length;
  }

  @Override
  public int smtSibling(int cpu, int i) {
    return k.cpus[cpu].siblings[i].id;
  }

  @Override
  public boolean smtActive() {
    return k.smt != null;
  }

  @Override
  public boolean asymCapacity() {
    return k.asymCapacity;
  }

  @Override
  public boolean llcHasIdleCores(int cpu) {
    return k.llcShared.hasIdleCores(k.cpus[cpu]);
  }

  @Override
  public int llcNrIdleScan(int cpu) {
    return k.llcShared.nrIdleScan[k.cpus[cpu].llcId];
  }

  @Override
  public void addPathCost(long ns) {
    k.pathCost += ns;
  }

  @Override
  public void migrateQueued(TaskView p, int dstCpu) {
    Task t = (Task) p;
    if (!t.onRq || t.onCpu || t.delayed || !t.allowed.get(dstCpu)) {
      throw new IllegalStateException(
          "migrateQueued: " + t + " is not a queued, waiting task" + " allowed on cpu " + dstCpu);
    }
    k.pathCost += k.costs.p(Param.LB_PER_TASK);
    k.sched.moveQueued(t, k.cpus[t.cpu], k.cpus[dstCpu]);
  }

  @Override
  public void setLlcHasIdleCores(int cpu, boolean value) {
    k.llcShared.hasIdleCores[k.cpus[cpu].llcId] = value;
  }

  @Override
  public int hz() {
    return k.hz;
  }

  @Override
  public long tickNs() {
    return k.tickNs;
  }

  @Override
  public List<? extends IdleStateView> idleStates() {
    return k.idleStates;
  }

  @Override
  public boolean virtualized() {
    return k.virtualized;
  }
}
