package dev.schedlab.traceimport.read;

import dev.schedlab.traceimport.Warnings;
import java.util.List;

/**
 * A trace as read: its events in time order (ties keep the order of the input), the CPU count and
 * what the reader had to skip.
 *
 * @param source the file name, for messages
 * @param format the format it was read in
 * @param nrCpus the CPU count of the traced machine
 * @param events the events, sorted by time
 * @param warnings what was skipped or guessed
 */
public record Trace(
    String source, TraceFormat format, int nrCpus, List<TraceEvent> events, Warnings warnings) {
  public Trace {
    events = List.copyOf(events);
  }

  /** The time of the first event (0 for an empty trace). */
  public long startNs() {
    return events.isEmpty() ? 0 : events.get(0).at().timeNs();
  }

  /** The time of the last event (0 for an empty trace). */
  public long endNs() {
    return events.isEmpty() ? 0 : events.get(events.size() - 1).at().timeNs();
  }
}
