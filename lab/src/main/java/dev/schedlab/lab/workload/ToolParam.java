package dev.schedlab.lab.workload;

import java.util.Locale;

/**
 * A cost or tunable of a tool model, overridable per scenario under {@code params:} of the tool
 * entry. Values are longs: nanoseconds for {@code unit = "ns"}, plain numbers otherwise.
 *
 * @param name key ({@code snake_case})
 * @param defaultValue default in {@code unit}
 * @param unit {@code ns}, {@code bytes}, {@code count} or {@code percent}
 * @param source where the default comes from: {@code [src] ...}, {@code [estimate] ...}
 * @param meaning what it is
 */
public record ToolParam(
    String name, long defaultValue, String unit, String source, String meaning) {
  /** A duration parameter. */
  public static ToolParam ns(String name, long def, String source, String meaning) {
    return new ToolParam(name, def, "ns", source, meaning);
  }

  /** A plain-number parameter. */
  public static ToolParam num(String name, long def, String unit, String source, String meaning) {
    return new ToolParam(name, def, unit, source, meaning);
  }

  /** The default as written in docs ({@code 250ns}, {@code 4096 bytes}). */
  public String shownDefault() {
    return unit.equals("ns")
        ? defaultValue + "ns"
        : String.format(Locale.ROOT, "%d %s", defaultValue, unit);
  }
}
