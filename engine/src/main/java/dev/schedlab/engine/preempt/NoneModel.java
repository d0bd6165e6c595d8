package dev.schedlab.engine.preempt;

/** ServiceLoader provider of {@link DynamicModel#none()}. */
public final class NoneModel extends ForwardingModel {
  /** The none model. */
  public NoneModel() {
    super(DynamicModel.none());
  }
}
