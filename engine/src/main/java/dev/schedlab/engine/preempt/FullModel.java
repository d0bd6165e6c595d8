package dev.schedlab.engine.preempt;

/** ServiceLoader provider of {@link DynamicModel#full()}. */
public final class FullModel extends ForwardingModel {
  /** The full model. */
  public FullModel() {
    super(DynamicModel.full());
  }
}
