package dev.schedlab.lab.scenario;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A YAML (or JSON) document whose every field path remembers where it was written, for other
 * readers of the project's files (matrix files) to name the line of a bad field as scenario errors
 * do.
 */
public final class LocatedYaml {
  private final LocatedTree tree;

  private LocatedYaml(LocatedTree tree) {
    this.tree = tree;
  }

  /** Parses {@code text}; a syntax error is a {@link ScenarioException} naming {@code source}. */
  public static LocatedYaml parse(String source, String text) throws ScenarioException {
    return new LocatedYaml(LocatedTree.parse(source, text, true));
  }

  /** The document (an empty map for an empty text). */
  public JsonNode root() {
    return tree.root();
  }

  /** {@code SOURCE:LINE:COL} of {@code path} ({@code cells[0].seed}), or of its nearest parent. */
  public String where(String path) {
    return tree.locate(path).toString();
  }
}
