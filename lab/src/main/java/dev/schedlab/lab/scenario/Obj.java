package dev.schedlab.lab.scenario;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** A map value of a scenario with typed, defaulted field access. */
final class Obj {
  private final Val self;

  Obj(Val self) {
    this.self = self;
  }

  Val self() {
    return self;
  }

  int size() {
    return self.node().size();
  }

  void allowOnly(String... allowed) throws ScenarioException {
    List<String> names = List.of(allowed);
    for (Iterator<String> it = self.node().fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!names.contains(f)) {
        throw self.child(f).error("unknown field; expected one of " + String.join(", ", names));
      }
    }
  }

  /** Field names in file order. */
  List<String> names() {
    List<String> out = new ArrayList<>();
    self.node().fieldNames().forEachRemaining(out::add);
    return out;
  }

  boolean has(String name) {
    return self.node().has(name) && !self.node().get(name).isNull();
  }

  /** The field, or a value wrapping null when absent. */
  Val get(String name) {
    return self.child(name);
  }

  Val required(String name) throws ScenarioException {
    if (!has(name)) {
      throw self.error("missing field '" + name + "'");
    }
    return get(name);
  }

  String text(String name, String def) throws ScenarioException {
    return has(name) ? get(name).text() : def;
  }

  String name(String name, String def) throws ScenarioException {
    return has(name) ? get(name).name() : def;
  }

  int integer(String name, int def, int min, int max) throws ScenarioException {
    return has(name) ? get(name).integer(min, max) : def;
  }

  long integer(String name, long def) throws ScenarioException {
    return has(name) ? get(name).integer(Long.MIN_VALUE, Long.MAX_VALUE) : def;
  }

  boolean bool(String name, boolean def) throws ScenarioException {
    return has(name) ? get(name).bool() : def;
  }

  long durationNs(String name, long def) throws ScenarioException {
    return has(name) ? get(name).durationNs() : def;
  }

  /** A string from {@code choices}. */
  String choice(String name, String def, String... choices) throws ScenarioException {
    if (!has(name)) {
      return def;
    }
    String v = get(name).text();
    if (!List.of(choices).contains(v)) {
      throw get(name)
          .error("expected one of " + String.join(", ", choices) + ", got " + get(name).shown());
    }
    return v;
  }

  /** Like {@link #choice} but null when the field is absent. */
  @Nullable String optionalChoice(String name, String... choices) throws ScenarioException {
    return has(name) ? choice(name, "", choices) : null;
  }
}
