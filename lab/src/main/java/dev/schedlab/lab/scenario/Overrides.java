package dev.schedlab.lab.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies {@code --set key=value} overrides to the parsed tree before binding. Keys are dotted
 * paths ({@code kernel.hz}, {@code workload.tasks[0].nice}); everything after {@code
 * kernel.params.} or {@code kernel.features.} is one key, dots included. Values are read as YAML
 * ({@code 250} is a number, {@code true} a boolean, {@code [C2, C6]} a list, {@code 400ns} a
 * string).
 */
final class Overrides {
  private static final Pattern SEGMENT = Pattern.compile("([A-Za-z0-9_\\-]+)((?:\\[\\d+\\])*)");
  private static final Pattern INDEX = Pattern.compile("\\[(\\d+)\\]");

  private Overrides() {}

  static void apply(LocatedTree tree, List<String> sets) throws ScenarioException {
    for (String raw : sets) {
      apply(tree, raw);
    }
  }

  private static void apply(LocatedTree tree, String raw) throws ScenarioException {
    String where = "--set " + raw;
    int eq = raw.indexOf('=');
    if (eq <= 0) {
      throw new ScenarioException(where + ": expected KEY=VALUE, for example kernel.hz=250");
    }
    String key = raw.substring(0, eq).trim();
    JsonNode value = value(raw.substring(eq + 1));
    if (!tree.root().isObject()) {
      throw new ScenarioException(where + ": the scenario is not a map");
    }
    List<Object> path = path(key, where); // String field names and Integer indexes
    JsonNode node = tree.root();
    StringBuilder at = new StringBuilder();
    for (int i = 0; i < path.size(); i++) {
      Object seg = path.get(i);
      boolean last = i == path.size() - 1;
      if (seg instanceof String f) {
        if (!node.isObject()) {
          throw new ScenarioException(where + ": " + at + " is not a map, cannot set field " + f);
        }
        at.append(at.length() == 0 ? "" : ".").append(f);
        ObjectNode o = (ObjectNode) node;
        if (last) {
          o.set(f, value);
        } else {
          if (!o.has(f) || o.get(f).isNull()) {
            o.set(
                f,
                path.get(i + 1) instanceof String
                    ? JsonNodeFactory.instance.objectNode()
                    : JsonNodeFactory.instance.arrayNode());
          }
          node = o.get(f);
        }
      } else {
        int idx = (Integer) seg;
        if (!node.isArray() || idx >= node.size()) {
          throw new ScenarioException(
              where + ": " + at + "[" + idx + "] does not exist in the scenario");
        }
        at.append('[').append(idx).append(']');
        if (last) {
          ((ArrayNode) node).set(idx, value);
        } else {
          node = node.get(idx);
        }
      }
    }
    tree.relocate(at.toString(), SourceLocation.of(where));
  }

  private static List<Object> path(String key, String where) throws ScenarioException {
    List<Object> out = new ArrayList<>();
    for (String prefix : new String[] {"kernel.params.", "kernel.features."}) {
      if (key.startsWith(prefix) && key.length() > prefix.length()) {
        out.add("kernel");
        out.add(prefix.substring(7, prefix.length() - 1));
        out.add(key.substring(prefix.length()));
        return out;
      }
    }
    for (String seg : key.split("\\.", -1)) {
      Matcher m = SEGMENT.matcher(seg);
      if (!m.matches()) {
        throw new ScenarioException(
            where
                + ": malformed key '"
                + key
                + "'; expected a dotted path such as kernel.hz or workload.tasks[0].nice");
      }
      out.add(m.group(1));
      Matcher ix = INDEX.matcher(m.group(2));
      while (ix.find()) {
        try {
          out.add(Integer.parseInt(ix.group(1)));
        } catch (NumberFormatException e) {
          throw new ScenarioException(
              where + ": index [" + ix.group(1) + "] out of range in '" + key + "'");
        }
      }
    }
    return out;
  }

  private static JsonNode value(String text) {
    if (text.isBlank()) {
      return JsonNodeFactory.instance.textNode(text.trim());
    }
    try {
      JsonNode n = LocatedTree.parse("value", text, true).root();
      return n.isObject() && n.isEmpty() ? JsonNodeFactory.instance.textNode(text) : n;
    } catch (ScenarioException e) {
      return JsonNodeFactory.instance.textNode(text);
    }
  }
}
