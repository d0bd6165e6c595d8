package dev.schedlab.report;

import dev.schedlab.engine.Version;
import dev.schedlab.lab.output.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The self-contained HTML report: one file holding its style, its script, its charts (SVG drawn
 * here) and the JSON of every input, opened offline by any browser. Equal inputs give equal bytes.
 */
public final class HtmlReport {
  private HtmlReport() {}

  /** The page of {@code sections}, in order. */
  public static String render(List<Section> sections) {
    if (sections.isEmpty()) {
      throw new IllegalArgumentException("a report needs at least one input");
    }
    return Page.render(Version.current(), sections);
  }

  /** Writes the page of {@code sections} to {@code out} atomically (no half-written file). */
  public static void write(Path out, List<Section> sections) throws IOException {
    AtomicFiles.write(out, render(sections).getBytes(StandardCharsets.UTF_8));
  }
}
