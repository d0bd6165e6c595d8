package dev.schedlab.report.html;

import org.jspecify.annotations.Nullable;

/**
 * A small SVG writer. Elements are built with {@link #el(String)}; coordinates go through {@link
 * Fmt#coord(double)} so equal charts give equal bytes. Elements carrying data get the class {@code
 * mark} (the browser test counts them).
 */
public final class Svg {
  private final StringBuilder b = new StringBuilder(4096);
  private final double width;
  private final double height;

  /** A drawing of {@code width} x {@code height} px described by {@code label}. */
  public Svg(double width, double height, String label) {
    this.width = width;
    this.height = height;
    b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        .append(Fmt.coord(width))
        .append("\" height=\"")
        .append(Fmt.coord(height))
        .append("\" viewBox=\"0 0 ")
        .append(Fmt.coord(width))
        .append(' ')
        .append(Fmt.coord(height))
        .append("\" role=\"img\" aria-label=\"")
        .append(Html.esc(label))
        .append("\">");
  }

  /** Width in px. */
  public double width() {
    return width;
  }

  /** Height in px. */
  public double height() {
    return height;
  }

  /** Starts an element; finish it with {@link El#end()} or {@link El#text(String)}. */
  public El el(String name) {
    return new El(name);
  }

  /** Appends raw markup (a group start or end). */
  public Svg raw(String markup) {
    b.append(markup);
    return this;
  }

  /** A text label at ({@code x}, {@code y}) with CSS class {@code cls} and text anchor. */
  public Svg label(double x, double y, String cls, String anchor, String text) {
    return el("text").a("x", x).a("y", y).a("class", cls).a("text-anchor", anchor).text(text);
  }

  /** A line from ({@code x1}, {@code y1}) to ({@code x2}, {@code y2}) with class {@code cls}. */
  public Svg line(double x1, double y1, double x2, double y2, String cls) {
    return el("line").a("x1", x1).a("y1", y1).a("x2", x2).a("y2", y2).a("class", cls).end();
  }

  /** The finished markup. */
  @Override
  public String toString() {
    return b + "</svg>";
  }

  /** One element under construction. */
  public final class El {
    private final String name;
    private @Nullable String title;

    private El(String name) {
      this.name = name;
      b.append('<').append(name);
    }

    /** A numeric attribute. */
    public El a(String key, double v) {
      b.append(' ').append(key).append("=\"").append(Fmt.coord(v)).append('"');
      return this;
    }

    /** A text attribute (escaped); skipped when {@code v} is null. */
    public El a(String key, @Nullable String v) {
      if (v != null) {
        b.append(' ').append(key).append("=\"").append(Html.esc(v)).append('"');
      }
      return this;
    }

    /** A tooltip ({@code <title>} child). */
    public El title(String t) {
      this.title = t;
      return this;
    }

    /** Closes the element, with its title if any. */
    public Svg end() {
      if (title == null) {
        b.append("/>");
      } else {
        b.append("><title>").append(Html.esc(title)).append("</title></").append(name).append('>');
      }
      return Svg.this;
    }

    /** Closes the element with text content. */
    public Svg text(String text) {
      b.append('>');
      if (title != null) {
        b.append("<title>").append(Html.esc(title)).append("</title>");
      }
      b.append(Html.esc(text)).append("</").append(name).append('>');
      return Svg.this;
    }
  }
}
