package dev.schedlab.api;

/** The function of a cross-CPU call ({@code smp_call_func_t}), run on the target CPU. */
@FunctionalInterface
public interface CallFunction {
  /** Runs on {@code cpu} with IRQs off. */
  void run(int cpu);
}
