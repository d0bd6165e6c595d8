package dev.schedlab.lab.scenario;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * A JSON tree read token by token so that every field path ({@code workload.tasks[0].policy})
 * remembers the line and column where it was written. Values replaced by {@code --set} point at the
 * override instead.
 */
final class LocatedTree {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final JsonFactory JSON =
      JsonFactory.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).build();
  private static final YAMLFactory YAML = new YAMLFactory();

  /** rt-app's json-c reader: also trailing commas and single-quoted strings. */
  private static final JsonFactory RTAPP_JSON =
      JsonFactory.builder()
          .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
          .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
          .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
          .build();

  private final String source;
  private final Map<String, SourceLocation> locations = new HashMap<>();
  private JsonNode root = MissingNode.getInstance(); // set by the parse methods

  /** rt-app files: repeated keys get workgen's numbered names instead of an error. */
  private boolean numberRepeatedKeys;

  private final java.util.List<String> renamed = new java.util.ArrayList<>();

  private LocatedTree(String source) {
    this.source = source;
  }

  /** Parses {@code text}, YAML when {@code yaml} else JSON; {@code source} names it in messages. */
  static LocatedTree parse(String source, String text, boolean yaml) throws ScenarioException {
    LocatedTree tree = new LocatedTree(source);
    try (JsonParser p = yaml ? YAML.createParser(text) : JSON.createParser(text)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        tree.root = NODES.objectNode();
        tree.locations.put("", new SourceLocation(source, 1, 1));
        return tree;
      }
      tree.root = tree.read(p, "");
      if (!yaml && p.nextToken() != null) {
        throw ScenarioException.at(
            tree.loc(p.currentTokenLocation()), "", "unexpected content after the document");
      }
    } catch (JsonProcessingException e) {
      SourceLocation where =
          e.getLocation() == null ? SourceLocation.of(source) : tree.loc(e.getLocation());
      throw new ScenarioException(where + ": syntax error: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new ScenarioException(source + ": cannot read: " + e.getMessage(), e);
    }
    return tree;
  }

  /**
   * Parses an rt-app file as rt-app's workgen and json-c read it: C comments, trailing commas, and
   * a key repeated in an object kept in order under workgen's numbered name ({@code run}, {@code
   * run1}, {@code run2}). {@link #renamedKeys()} lists the renamed paths.
   */
  static LocatedTree parseRtApp(String source, String text) throws ScenarioException {
    LocatedTree tree = new LocatedTree(source);
    tree.numberRepeatedKeys = true;
    try (JsonParser p = RTAPP_JSON.createParser(text)) {
      if (p.nextToken() == null) {
        throw new ScenarioException(source + ": empty file; expected an rt-app JSON object");
      }
      tree.root = tree.read(p, "");
      if (p.nextToken() != null) {
        throw ScenarioException.at(
            tree.loc(p.currentTokenLocation()), "", "unexpected content after the document");
      }
    } catch (JsonProcessingException e) {
      SourceLocation where =
          e.getLocation() == null ? SourceLocation.of(source) : tree.loc(e.getLocation());
      throw new ScenarioException(
          where
              + ": invalid JSON (rt-app's json-c parser rejects it too): "
              + e.getOriginalMessage(),
          e);
    } catch (IOException e) {
      throw new ScenarioException(source + ": cannot read: " + e.getMessage(), e);
    }
    return tree;
  }

  /** Paths of the keys renamed because they repeated one of their object ({@link #parseRtApp}). */
  java.util.List<String> renamedKeys() {
    return java.util.List.copyOf(renamed);
  }

  String source() {
    return source;
  }

  JsonNode root() {
    return root;
  }

  /** Where {@code path} was written; falls back to the nearest enclosing path that was. */
  SourceLocation locate(String path) {
    String p = path;
    while (true) {
      SourceLocation l = locations.get(p);
      if (l != null) {
        return l;
      }
      if (p.isEmpty()) {
        return SourceLocation.of(source);
      }
      int cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
      p = cut < 0 ? "" : p.substring(0, cut);
    }
  }

  /** Records that {@code path} (and everything under it) came from {@code where}. */
  void relocate(String path, SourceLocation where) {
    locations.keySet().removeIf(k -> k.startsWith(path + ".") || k.startsWith(path + "["));
    locations.put(path, where);
  }

  /** The recorded locations of {@code path} and everything under it. */
  Map<String, SourceLocation> locationsUnder(String path) {
    Map<String, SourceLocation> out = new HashMap<>();
    locations.forEach(
        (k, v) -> {
          if (k.equals(path) || k.startsWith(path + ".") || k.startsWith(path + "[")) {
            out.put(k, v);
          }
        });
    return out;
  }

  /** Records {@code more} over the present locations (values grafted from another file). */
  void putLocations(Map<String, SourceLocation> more) {
    locations.putAll(more);
  }

  private SourceLocation loc(JsonLocation l) {
    return new SourceLocation(source, l.getLineNr(), l.getColumnNr());
  }

  private JsonNode read(JsonParser p, String path) throws IOException, ScenarioException {
    JsonToken t = p.currentToken();
    locations.putIfAbsent(path, loc(p.currentTokenLocation()));
    switch (t) {
      case START_OBJECT -> {
        ObjectNode o = NODES.objectNode();
        int nextId = 1; // workgen's per-object counter for renamed keys
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          String child = path.isEmpty() ? name : path + "." + name;
          SourceLocation at = loc(p.currentTokenLocation());
          if (o.has(name) && numberRepeatedKeys) {
            while (o.has(name + nextId)) {
              nextId++;
            }
            name = name + nextId;
            child = path.isEmpty() ? name : path + "." + name;
            renamed.add(child + " (line " + at.line() + ")");
          }
          if (o.has(name)) {
            throw ScenarioException.at(at, child, "duplicate field");
          }
          locations.put(child, at);
          p.nextToken();
          o.set(name, read(p, child));
        }
        return o;
      }
      case START_ARRAY -> {
        ArrayNode a = NODES.arrayNode();
        int i = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
          a.add(read(p, path + "[" + i++ + "]"));
        }
        return a;
      }
      case VALUE_STRING -> {
        return NODES.textNode(p.getText());
      }
      case VALUE_NUMBER_INT -> {
        return p.getNumberType() == JsonParser.NumberType.INT
            ? NODES.numberNode(p.getIntValue())
            : p.getNumberType() == JsonParser.NumberType.LONG
                ? NODES.numberNode(p.getLongValue())
                : NODES.numberNode(p.getBigIntegerValue());
      }
      case VALUE_NUMBER_FLOAT -> {
        return NODES.numberNode(p.getDoubleValue());
      }
      case VALUE_TRUE -> {
        return NODES.booleanNode(true);
      }
      case VALUE_FALSE -> {
        return NODES.booleanNode(false);
      }
      case VALUE_NULL -> {
        return NODES.nullNode();
      }
      default -> {
        throw ScenarioException.at(loc(p.currentTokenLocation()), path, "unsupported content " + t);
      }
    }
  }
}
