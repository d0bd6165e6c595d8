package dev.schedlab.lab.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A strict getopt-style parser for tool argument strings: {@code -i 100}, {@code -i100}, {@code
 * --interval=100}, {@code --interval 100}, flags, and options whose argument is optional ({@code
 * -t}, {@code -t4}, {@code -t 4} when the next word is a number). Unknown options and missing or
 * malformed values fail with the option named.
 */
public final class ToolArgs {
  /** Whether an option takes an argument. */
  public enum Arg {
    NONE,
    REQUIRED,
    OPTIONAL
  }

  /**
   * One option.
   *
   * @param shortName one letter or null
   * @param longName long name (the key values are stored under)
   * @param arg argument kind
   */
  public record Opt(@Nullable String shortName, String longName, Arg arg) {
    public static Opt of(@Nullable String s, String l, Arg a) {
      return new Opt(s, l, a);
    }
  }

  private final String tool;
  private final Map<String, String> values = new LinkedHashMap<>();
  private final List<String> positionals = new ArrayList<>();

  private ToolArgs(String tool) {
    this.tool = tool;
  }

  /** Parses {@code line} against {@code opts}; a flag's value is the empty string. */
  public static ToolArgs parse(String tool, String line, List<Opt> opts) throws ToolArgsException {
    ToolArgs a = new ToolArgs(tool);
    List<String> words =
        line == null || line.isBlank() ? List.of() : Arrays.asList(line.trim().split("\\s+"));
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      String next = i + 1 < words.size() ? words.get(i + 1) : null;
      Opt opt;
      String attached = null;
      if (w.startsWith("--") && w.length() > 2) {
        int eq = w.indexOf('=');
        String name = eq < 0 ? w.substring(2) : w.substring(2, eq);
        attached = eq < 0 ? null : w.substring(eq + 1);
        opt =
            opts.stream()
                .filter(o -> o.longName().equals(name))
                .findFirst()
                .orElseThrow(() -> a.error("unknown option --" + name));
      } else if (w.startsWith("-") && w.length() > 1 && !isNumber(w)) {
        String name = w.substring(1, 2);
        attached = w.length() > 2 ? w.substring(2) : null;
        opt =
            opts.stream()
                .filter(o -> name.equals(o.shortName()))
                .findFirst()
                .orElseThrow(() -> a.error("unknown option -" + name));
        if (opt.arg() == Arg.NONE && attached != null) {
          throw a.error("option -" + name + " takes no value, got " + w);
        }
      } else {
        a.positionals.add(w);
        continue;
      }
      int cut = w.indexOf('=');
      String shown = w.startsWith("--") ? (cut < 0 ? w : w.substring(0, cut)) : w.substring(0, 2);
      String value;
      switch (opt.arg()) {
        case NONE -> {
          if (attached != null) {
            throw a.error("option " + shown + " takes no value");
          }
          value = "";
        }
        case REQUIRED -> {
          if (attached != null) {
            value = attached;
          } else if (next != null) {
            value = next;
            i++;
          } else {
            throw a.error("option " + shown + " needs a value");
          }
        }
        default -> {
          if (attached != null) {
            value = attached;
          } else if (next != null && isNumber(next)) {
            value = next;
            i++;
          } else {
            value = "";
          }
        }
      }
      a.values.put(opt.longName(), value);
    }
    return a;
  }

  private static boolean isNumber(String s) {
    return s.matches("-?\\d+(\\.\\d+)?");
  }

  ToolArgsException error(String message) {
    return new ToolArgsException(tool + ": " + message);
  }

  /** Whether the option was given. */
  public boolean has(String longName) {
    return values.containsKey(longName);
  }

  /** The option's value, or {@code def} when absent or given without a value. */
  public String text(String longName, String def) {
    String v = values.get(longName);
    return v == null || v.isEmpty() ? def : v;
  }

  /** Words that are not options, in order. */
  public List<String> positionals() {
    return positionals;
  }

  /** An integer option in [min, max]. */
  public long integer(String longName, long def, long min, long max) throws ToolArgsException {
    String v = values.get(longName);
    if (v == null || v.isEmpty()) {
      return def;
    }
    return integerOf("--" + longName, v, min, max);
  }

  /** Parses {@code v} as an integer in [min, max] for option {@code what}. */
  public long integerOf(String what, String v, long min, long max) throws ToolArgsException {
    long n;
    try {
      n = Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw error(what + ": expected an integer, got '" + v + "'");
    }
    if (n < min || n > max) {
      throw error(what + ": expected " + min + ".." + max + ", got " + n);
    }
    return n;
  }

  /** A decimal option in [min, max]. */
  public double decimal(String longName, double def, double min, double max)
      throws ToolArgsException {
    String v = values.get(longName);
    if (v == null || v.isEmpty()) {
      return def;
    }
    double d;
    try {
      d = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw error("--" + longName + ": expected a number, got '" + v + "'");
    }
    if (d < min || d > max) {
      throw error("--" + longName + ": expected " + min + ".." + max + ", got " + v);
    }
    return d;
  }

  /** A value from {@code choices} (case-insensitive). */
  public String choice(String longName, String def, String... choices) throws ToolArgsException {
    String v = text(longName, def).toLowerCase(Locale.ROOT);
    if (!List.of(choices).contains(v)) {
      throw error(
          "--"
              + longName
              + ": expected one of "
              + String.join(", ", choices)
              + ", got '"
              + v
              + "'");
    }
    return v;
  }

  /**
   * A time with an optional unit suffix (as stress-ng and rtla accept: {@code 100}, {@code 5us},
   * {@code 2ms}, {@code 1s}, {@code 1m}); a bare number is in {@code bareUnitNs}.
   */
  public long timeNs(String longName, long defNs, long bareUnitNs) throws ToolArgsException {
    String v = values.get(longName);
    if (v == null || v.isEmpty()) {
      return defNs;
    }
    return timeOf("--" + longName, v, bareUnitNs);
  }

  /** Parses a time value; see {@link #timeNs}. */
  public long timeOf(String what, String v, long bareUnitNs) throws ToolArgsException {
    String[][] units = {
      {"ns", "1"},
      {"us", "1000"},
      {"ms", "1000000"},
      {"s", "1000000000"},
      {"m", "60000000000"},
      {"h", "3600000000000"}
    };
    for (String[] u : units) {
      if (v.endsWith(u[0])
          && v.length() > u[0].length()
          && isNumber(v.substring(0, v.length() - u[0].length()))) {
        double n = Double.parseDouble(v.substring(0, v.length() - u[0].length()));
        return Math.round(n * Long.parseLong(u[1]));
      }
    }
    if (isNumber(v) && !v.startsWith("-")) {
      return Math.round(Double.parseDouble(v) * bareUnitNs);
    }
    throw error(what + ": expected a time such as 100, 100us, 2ms or 1s, got '" + v + "'");
  }
}
