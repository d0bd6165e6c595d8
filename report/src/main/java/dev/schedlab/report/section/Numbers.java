package dev.schedlab.report.section;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schedlab.report.html.Ptr;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** The numeric leaves of a JSON tree: dotted path, pointer and node, in document order. */
final class Numbers {
  /**
   * One leaf.
   *
   * @param path dotted path below the start (array elements as [i])
   * @param ptr JSON Pointer from the document root
   * @param node the number
   */
  record Leaf(String path, String ptr, JsonNode node) {}

  private Numbers() {}

  /** The leaves under {@code n}, which sits at pointer {@code base} of the document. */
  static List<Leaf> leaves(JsonNode n, String base) {
    List<Leaf> out = new ArrayList<>();
    walk("", base, n, out);
    return out;
  }

  private static void walk(String path, String ptr, JsonNode n, List<Leaf> out) {
    if (n.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = n.properties().iterator(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        walk(
            path.isEmpty() ? e.getKey() : path + "." + e.getKey(),
            ptr + Ptr.of(e.getKey()),
            e.getValue(),
            out);
      }
    } else if (n.isArray()) {
      for (int i = 0; i < n.size(); i++) {
        walk(path + "[" + i + "]", ptr + Ptr.of(i), n.get(i), out);
      }
    } else if (n.isNumber()) {
      out.add(new Leaf(path, ptr, n));
    }
  }

  /** The names under an object node, in order. */
  static List<String> names(JsonNode n) {
    List<String> out = new ArrayList<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }
}
