/**
 * The model's kernel: CPUs and their runqueues, tasks, interrupts, the idle loop, timers, deferred
 * work, locks and load balancing, driven by one single-threaded, deterministic event loop.
 *
 * <p>How a run is put together: {@link dev.schedlab.engine.core.KernelBuilder} builds a {@link
 * dev.schedlab.engine.core.Kernel}; its {@code EventLoop} takes the future events in time order and
 * hands each to the mechanism that owns it ({@code Scheduler}, {@code IdleSpinWindow}, {@code
 * Interrupts}, {@code IdleLoop}, {@code TaskExec}, {@code Deferred}); every path cost comes from
 * the {@code CostModel} (the parameter table); scheduling classes, idle policies and plugins see
 * the kernel only through {@code KernelServices}, the API's services and views.
 *
 * <p>Shared state, on purpose. The mechanism classes read and write each other's state directly,
 * through package-private fields, the way kernel/sched code uses the fields of {@code struct rq}
 * and {@code struct task_struct}: {@code Cpu} is the runqueue and per-CPU state, {@code Task} the
 * task, and {@code Kernel} holds what the kernel has once per machine (the clock {@code now}, the
 * running CPU {@code thisCpu}, the cost {@code pathCost} of the path being executed, the event
 * queue, the CPUs, the tasks, and the mechanism objects). Wrapping each of these in accessors would
 * hide the kernel path the code follows; the package boundary is the encapsulation: nothing outside
 * it sees these fields, and code behind the API sees only the views.
 */
package dev.schedlab.engine.core;
