package dev.schedlab.api;

import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;

/**
 * A preemption model: which resched bit a request sets (hook point H3) and which preemption points
 * act on which bit (hook point H4). Built-in models: {@code none}, {@code voluntary}, {@code full},
 * {@code lazy}; plugins may add more (for example PREEMPT_AUTO's). The scenario's {@code
 * kernel.preempt} names the model.
 */
public interface PreemptionModel {
  /** Name used in scenarios, for example {@code voluntary}. */
  String name();

  /** H3 ({@code resched_curr} / {@code resched_opt_translate}): the bit a request sets on curr. */
  ReschedBit chooseBit(RqView rq, TaskView curr, ReschedReason reason);

  /** H4: whether a pending {@code bit} makes {@code point} call {@code __schedule()}. */
  boolean honours(PreemptPoint point, ReschedBit bit);

  /** H4: whether the tick promotes a pending LAZY bit on {@code curr} to NEED_RESCHED. */
  boolean tickUpgrade(RqView rq, TaskView curr);
}
