package dev.schedlab.engine.preempt;

/** ServiceLoader provider of {@link DynamicModel#voluntary()}. */
public final class VoluntaryModel extends ForwardingModel {
  /** The voluntary model. */
  public VoluntaryModel() {
    super(DynamicModel.voluntary());
  }
}
