package dev.schedlab.engine.core;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A task's draws ({@link dev.schedlab.engine.config.TaskSpec#draws()}) laid out by the slot its
 * PICK ops read. Names are taken in sorted order, so the first bad draw reported is the same on
 * every run.
 */
final class PickDraws {
  private PickDraws() {}

  /**
   * The draws by slot; those of no pick step are dropped.
   *
   * @param slots each pick name's slot
   * @param bounds each slot's number of choices
   * @throws IllegalArgumentException a value is not the index of a choice
   */
  static int[][] bySlot(
      Map<String, Integer> slots,
      List<Integer> bounds,
      Map<String, List<Integer>> byName,
      String taskComm) {
    int[][] out = new int[slots.size()][];
    for (Map.Entry<String, List<Integer>> e : new TreeMap<>(byName).entrySet()) {
      Integer slot = slots.get(e.getKey());
      if (slot == null) {
        continue;
      }
      int[] seq = new int[e.getValue().size()];
      for (int i = 0; i < seq.length; i++) {
        seq[i] = e.getValue().get(i);
        if (seq[i] < 0 || seq[i] >= bounds.get(slot)) {
          throw new IllegalArgumentException(
              taskComm
                  + ": draw "
                  + seq[i]
                  + " of "
                  + e.getKey()
                  + " is not one of the pick's "
                  + bounds.get(slot)
                  + " choices");
        }
      }
      out[slot] = seq;
    }
    return out;
  }
}
