package dev.schedlab.api.hook;

import dev.schedlab.api.IpiDelivery;
import dev.schedlab.api.view.CpuView;

/**
 * H13: {@code call_function_single_prep_ipi()}: decides whether a queued cross-CPU call needs a
 * real IPI. The polling shortcut sets NEED_RESCHED on the target's idle task instead.
 */
@FunctionalInterface
public interface IpiPrepareHook {
  /** Mainline (v5.8+, {@code set_nr_if_polling}): no IPI to a CPU that polls. */
  IpiPrepareHook MAINLINE =
      target -> target.polling() ? IpiDelivery.POLLING_SHORTCUT : IpiDelivery.REAL_IPI;

  /** How the call reaches {@code target}. */
  IpiDelivery prepare(CpuView target);
}
