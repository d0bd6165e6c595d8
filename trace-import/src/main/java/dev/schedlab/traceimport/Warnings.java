package dev.schedlab.traceimport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an import skipped or guessed, grouped by kind: the first line of each kind and how often it
 * happened, so a trace with a million unknown events gives one warning, not a million.
 */
public final class Warnings {
  private final String source;
  private final Map<String, Entry> byKind = new LinkedHashMap<>();

  private static final class Entry {
    final String first;
    long count;

    Entry(String first) {
      this.first = first;
    }
  }

  /** Warnings about {@code source} (a file name, used as the prefix of each message). */
  public Warnings(String source) {
    this.source = source;
  }

  /** Records a warning of {@code kind} at {@code line} (0 = not tied to a line). */
  public void add(String kind, int line, String message) {
    Entry e = byKind.get(kind);
    if (e == null) {
      String where = line > 0 ? source + ":" + line + ": " : source + ": ";
      e = new Entry(where + message);
      byKind.put(kind, e);
    }
    e.count++;
  }

  /** How many warnings of {@code kind} were recorded. */
  public long count(String kind) {
    Entry e = byKind.get(kind);
    return e == null ? 0 : e.count;
  }

  /** Whether nothing was recorded. */
  public boolean isEmpty() {
    return byKind.isEmpty();
  }

  /** One line per kind: its first occurrence, and the number of further ones. */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    for (Entry e : byKind.values()) {
      out.add(e.count == 1 ? e.first : e.first + " (" + e.count + " times)");
    }
    return out;
  }
}
