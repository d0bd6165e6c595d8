package dev.schedlab.report;

import dev.schedlab.report.html.Html;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The HTML document: inline style and script (resources next to this class), a Content Security
 * Policy that forbids every fetch (the page never touches the network), one section per input, each
 * with its input JSON in a {@code <script type="application/json">} element. Nothing in it depends
 * on the time or machine it was made on.
 */
final class Page {
  private static final String CSP =
      "default-src 'none'; style-src 'unsafe-inline';"
          + " script-src 'unsafe-inline'; img-src data:";

  private Page() {}

  static String render(String version, List<Section> sections) {
    StringBuilder b = new StringBuilder(1 << 16);
    String title =
        "schedlab report: " + String.join(", ", sections.stream().map(Section::title).toList());
    b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta http-equiv=\"Content-Security-Policy\" content=\"")
        .append(CSP)
        .append("\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<meta name=\"generator\" content=\"schedlab ")
        .append(Html.esc(version))
        .append("\">")
        .append("<title>")
        .append(Html.esc(title))
        .append("</title><style>")
        .append(resource("report.css"))
        .append("</style></head>\n<body><header><h1>schedlab report</h1>")
        .append("<p class=\"sub\">Made by schedlab ")
        .append(Html.esc(version))
        .append(" from ")
        .append(sections.size())
        .append(sections.size() == 1 ? " input" : " inputs")
        .append(". Every chart is drawn from the JSON embedded in its section (save it with the")
        .append(" button); the page needs no network.</p><nav><ul>");
    for (int i = 0; i < sections.size(); i++) {
      b.append("<li><a href=\"#in")
          .append(i + 1)
          .append("\">")
          .append(Html.esc(sections.get(i).title()))
          .append("</a></li>");
    }
    b.append("</ul></nav></header>\n<main>");
    for (int i = 0; i < sections.size(); i++) {
      Section s = sections.get(i);
      String id = "in" + (i + 1);
      b.append("<section class=\"input\" id=\"")
          .append(id)
          .append("\" data-kind=\"")
          .append(Html.esc(s.kind()))
          .append("\"><h2>")
          .append(Html.esc(s.title()))
          .append(" <button type=\"button\" class=\"save\" data-for=\"")
          .append(id)
          .append("-json\" data-name=\"")
          .append(Html.esc(s.jsonName()))
          .append("\">save input JSON</button></h2>\n")
          .append(s.body())
          .append("\n<script type=\"application/json\" class=\"input-json\" id=\"")
          .append(id)
          .append("-json\">")
          .append(Html.scriptJson(s.json()))
          .append("</script></section>\n");
    }
    b.append("</main><script>").append(resource("report.js")).append("</script></body></html>\n");
    return b.toString();
  }

  private static String resource(String name) {
    try (InputStream in = Page.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
