package dev.schedlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedlab.report.html.Fmt;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads a rendered page back: its sections' embedded JSON and the numbers that point into it. */
final class PageCheck {
  private static final Pattern SECTION =
      Pattern.compile(
          "<section class=\"input\" id=\"(in\\d+)\" data-kind=\"(\\w+)\">(.*?)<script type=\"application/json\""
              + " class=\"input-json\" id=\"\\1-json\">(.*?)</script></section>",
          Pattern.DOTALL);
  private static final Pattern NUMBER = Pattern.compile("data-ptr=\"([^\"]*)\">([^<]*)<");

  /**
   * One section.
   *
   * @param kind its kind
   * @param body its HTML before the embedded JSON
   * @param json the embedded JSON, parsed
   */
  record Part(String kind, String body, JsonNode json) {}

  private PageCheck() {}

  static List<Part> sections(String html) throws Exception {
    List<Part> out = new ArrayList<>();
    Matcher m = SECTION.matcher(html);
    while (m.find()) {
      out.add(new Part(m.group(2), m.group(3), new ObjectMapper().readTree(m.group(4))));
    }
    return out;
  }

  /** Asserts every number with a pointer shows the JSON's value there; returns how many. */
  static int numbersMatch(Part p) {
    Matcher m = NUMBER.matcher(p.body());
    int n = 0;
    while (m.find()) {
      String ptr =
          m.group(1)
              .replace("&quot;", "\"")
              .replace("&amp;", "&")
              .replace("&#39;", "'")
              .replace("&lt;", "<")
              .replace("&gt;", ">");
      JsonNode v = p.json().at(JsonPointer.compile(ptr));
      assertThat(v.isMissingNode()).as("pointer %s resolves", ptr).isFalse();
      assertThat(m.group(2)).as("number at %s", ptr).isEqualTo(Fmt.json(v));
      n++;
    }
    return n;
  }
}
