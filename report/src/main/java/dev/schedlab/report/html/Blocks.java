package dev.schedlab.report.html;

import dev.schedlab.report.chart.Chart;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The building blocks of a section: facts, figures and (sortable) tables. */
public final class Blocks {
  private Blocks() {}

  /** A two-column table of facts: label, value. */
  public static String facts(List<Cell[]> rows) {
    StringBuilder b = new StringBuilder("<table class=\"facts\"><tbody>");
    for (Cell[] r : rows) {
      b.append("<tr><th>").append(Html.esc(r[0].text())).append("</th>");
      td(b, r[1]);
      b.append("</tr>");
    }
    return b.append("</tbody></table>").toString();
  }

  /** A chart with its title and note; null charts give nothing. */
  public static String figure(@Nullable Chart c) {
    if (c == null) {
      return "";
    }
    StringBuilder b =
        new StringBuilder("<figure class=\"chart\" data-chart=\"")
            .append(Html.esc(c.kind()))
            .append("\"><figcaption>")
            .append(Html.esc(c.title()))
            .append("</figcaption><div class=\"plot\">")
            .append(c.svg())
            .append("</div>");
    if (!c.note().isEmpty()) {
      b.append("<p class=\"note\">").append(Html.esc(c.note())).append("</p>");
    }
    return b.append("</figure>").toString();
  }

  /** A table whose columns sort when their header is clicked. */
  public static String table(String caption, List<String> header, List<List<Cell>> rows) {
    StringBuilder b =
        new StringBuilder("<div class=\"table-wrap\"><table class=\"data sortable\">");
    if (caption != null) {
      b.append("<caption>").append(Html.esc(caption)).append("</caption>");
    }
    b.append("<thead><tr>");
    for (String h : header) {
      b.append("<th tabindex=\"0\" title=\"click to sort\">").append(Html.esc(h)).append("</th>");
    }
    b.append("</tr></thead><tbody>");
    for (List<Cell> r : rows) {
      b.append("<tr>");
      r.forEach(c -> td(b, c));
      b.append("</tr>");
    }
    return b.append("</tbody></table></div>").toString();
  }

  private static void td(StringBuilder b, Cell c) {
    b.append("<td");
    if (c.cls() != null) {
      b.append(" class=\"").append(Html.esc(c.cls())).append('"');
    }
    if (c.sort() != null) {
      b.append(" data-sort=\"").append(Html.esc(c.sort())).append('"');
    }
    b.append('>');
    if (c.ptr() != null) {
      b.append("<span data-ptr=\"")
          .append(Html.esc(c.ptr()))
          .append("\">")
          .append(Html.esc(c.text()))
          .append("</span>");
    } else {
      b.append(Html.esc(c.text()));
    }
    b.append("</td>");
  }

  /** A band {@code [lo, hi]} of the input as "lo to hi". */
  public static String range(com.fasterxml.jackson.databind.JsonNode band) {
    return Fmt.json(band.get(0)) + " to " + Fmt.json(band.get(1));
  }

  /** A heading. */
  public static String h(int level, String text) {
    return "<h" + level + ">" + Html.esc(text) + "</h" + level + ">";
  }

  /** A paragraph of escaped text with class {@code cls}. */
  public static String p(String cls, String text) {
    return "<p class=\"" + cls + "\">" + Html.esc(text) + "</p>";
  }
}
