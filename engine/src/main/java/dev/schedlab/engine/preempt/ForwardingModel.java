package dev.schedlab.engine.preempt;

import dev.schedlab.api.PreemptPoint;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.ReschedBit;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;

/** A model that delegates to another; lets ServiceLoader instantiate the built-in models. */
abstract class ForwardingModel implements PreemptionModel {
  private final PreemptionModel delegate;

  ForwardingModel(PreemptionModel delegate) {
    this.delegate = delegate;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public ReschedBit chooseBit(RqView rq, TaskView curr, ReschedReason reason) {
    return delegate.chooseBit(rq, curr, reason);
  }

  @Override
  public boolean honours(PreemptPoint point, ReschedBit bit) {
    return delegate.honours(point, bit);
  }

  @Override
  public boolean tickUpgrade(RqView rq, TaskView curr) {
    return delegate.tickUpgrade(rq, curr);
  }
}
