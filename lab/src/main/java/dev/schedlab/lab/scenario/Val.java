package dev.schedlab.lab.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schedlab.api.plugin.Durations;
import dev.schedlab.engine.config.Dist;
import java.util.ArrayList;
import java.util.List;

/** One value of a {@link LocatedTree} with its path; conversions fail with located messages. */
record Val(LocatedTree tree, String path, JsonNode node) {

  ScenarioException error(String problem) {
    return ScenarioException.at(tree.locate(path), path, problem);
  }

  private ScenarioException expected(String what) {
    return error("expected " + what + ", got " + shown());
  }

  String shown() {
    return node.isContainerNode() ? (node.isArray() ? "a list" : "a map") : node.toString();
  }

  Val child(String name) {
    return new Val(tree, path.isEmpty() ? name : path + "." + name, node.get(name));
  }

  /** A string; numbers and booleans are taken as written. */
  String text() throws ScenarioException {
    if (!node.isValueNode() || node.isNull()) {
      throw expected("a string");
    }
    return node.asText();
  }

  /** A name: a non-empty string without whitespace. */
  String name() throws ScenarioException {
    String s = text();
    if (s.isEmpty() || s.chars().anyMatch(Character::isWhitespace)) {
      throw expected("a name without spaces");
    }
    return s;
  }

  long integer(long min, long max) throws ScenarioException {
    String range = min == Long.MIN_VALUE ? "an integer" : "an integer from " + min + " to " + max;
    if (!node.isIntegralNumber() || !node.canConvertToLong()) {
      throw expected(range);
    }
    long v = node.longValue();
    if (v < min || v > max) {
      throw expected(range);
    }
    return v;
  }

  /** A number (integer or decimal) from {@code min} to {@code max}. */
  double number(double min, double max) throws ScenarioException {
    if (!node.isNumber()
        || !Double.isFinite(node.doubleValue())
        || node.doubleValue() < min
        || node.doubleValue() > max) {
      throw expected("a number from " + min + " to " + max);
    }
    return node.doubleValue();
  }

  int integer(int min, int max) throws ScenarioException {
    return (int) integer((long) min, (long) max);
  }

  boolean bool() throws ScenarioException {
    if (!node.isBoolean()) {
      throw expected("true or false");
    }
    return node.booleanValue();
  }

  /** A duration: a string with unit (ns, us, ms, s) or an integer of nanoseconds. */
  long durationNs() throws ScenarioException {
    if (node.isIntegralNumber() && node.canConvertToLong() && node.longValue() >= 0) {
      return node.longValue();
    }
    if (node.isTextual()) {
      try {
        return Durations.parseNs(node.textValue(), path);
      } catch (IllegalArgumentException e) {
        // fall through to the located message
      }
    }
    throw expected("a duration such as 250ns, 100us, 1.5ms, 10s or an integer of ns");
  }

  /** A duration or a distribution: {@code {uniform: [A, B]}} or {@code {exp: MEAN}}. */
  Dist dist() throws ScenarioException {
    if (!node.isObject()) {
      return Dist.fixed(durationNs());
    }
    Obj o = object("uniform", "exp");
    if (o.size() != 1) {
      throw error("expected a duration, {uniform: [A, B]} or {exp: MEAN}");
    }
    if (o.has("exp")) {
      return Dist.exp(o.get("exp").durationNs());
    }
    List<Val> ab = o.get("uniform").list();
    if (ab.size() != 2) {
      throw o.get("uniform").error("expected two durations [A, B]");
    }
    long a = ab.get(0).durationNs();
    long b = ab.get(1).durationNs();
    if (a > b) {
      throw o.get("uniform").error("expected A <= B, got " + a + "ns > " + b + "ns");
    }
    return Dist.uniform(a, b);
  }

  List<Val> list() throws ScenarioException {
    if (!node.isArray()) {
      throw expected("a list");
    }
    List<Val> out = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      out.add(new Val(tree, path + "[" + i + "]", node.get(i)));
    }
    return out;
  }

  /** This value as a map whose keys must be among {@code allowed} (none given = any key). */
  Obj object(String... allowed) throws ScenarioException {
    if (!node.isObject()) {
      throw expected("a map");
    }
    Obj o = new Obj(this);
    if (allowed.length > 0) {
      o.allowOnly(allowed);
    }
    return o;
  }
}
