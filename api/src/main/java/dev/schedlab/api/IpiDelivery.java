package dev.schedlab.api;

/** How a cross-CPU call reaches its target (hook point H13). */
public enum IpiDelivery {
  /** The target polls in idle: setting NEED_RESCHED on its idle task wakes it, no interrupt. */
  POLLING_SHORTCUT,
  /** A real inter-processor interrupt. */
  REAL_IPI
}
