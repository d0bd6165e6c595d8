package dev.schedlab.engine.preempt;

/** ServiceLoader provider of {@link DynamicModel#lazy()}. */
public final class LazyModel extends ForwardingModel {
  /** The lazy model. */
  public LazyModel() {
    super(DynamicModel.lazy());
  }
}
