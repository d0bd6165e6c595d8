package dev.schedlab.lab.rtapp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads rt-app thread logs, the real tool's and schedlab's: comment lines start with {@code #}
 * (rt-app 1.0 writes a {@code # Policy : ...} line before the header); the header line {@code #idx
 * perf run ...} names the columns; each other line is one row of whitespace-separated integers. The
 * columns must be rt-app's eleven, in its order.
 */
public final class LogParser {
  private LogParser() {}

  /** A parsed log. */
  public record LogFile(String thread, List<String> comments, List<LogRow> rows) {
    public LogFile {
      comments = List.copyOf(comments);
      rows = List.copyOf(rows);
    }
  }

  /** Parses {@code text} of thread {@code thread}; {@code source} names it in errors. */
  public static LogFile parse(String source, String thread, String text) {
    List<String> comments = new ArrayList<>();
    List<LogRow> rows = new ArrayList<>();
    boolean header = false;
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty()) {
        continue;
      }
      if (line.startsWith("#idx")) {
        List<String> cols = Arrays.asList(line.substring(1).trim().split("\\s+"));
        if (!cols.equals(Arrays.asList(LogRow.COLUMNS))) {
          throw new IllegalArgumentException(
              source
                  + ":"
                  + (i + 1)
                  + ": columns "
                  + cols
                  + " are not rt-app's "
                  + Arrays.toString(LogRow.COLUMNS));
        }
        header = true;
      } else if (line.startsWith("#")) {
        comments.add(line);
      } else {
        if (!header) {
          throw new IllegalArgumentException(
              source + ":" + (i + 1) + ": a row before the" + " #idx header line");
        }
        String[] f = line.split("\\s+", -1); // line is stripped: no trailing empty part
        if (f.length != LogRow.COLUMNS.length) {
          throw new IllegalArgumentException(
              source
                  + ":"
                  + (i + 1)
                  + ": "
                  + f.length
                  + " fields, expected "
                  + LogRow.COLUMNS.length);
        }
        long[] v = new long[f.length];
        for (int c = 0; c < f.length; c++) {
          try {
            v[c] = Long.parseLong(f[c]);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                source
                    + ":"
                    + (i + 1)
                    + ": column "
                    + LogRow.COLUMNS[c]
                    + ": not an integer: "
                    + f[c],
                e);
          }
        }
        rows.add(LogRow.of(v));
      }
    }
    if (!header) {
      throw new IllegalArgumentException(source + ": no #idx header line: not an rt-app log");
    }
    return new LogFile(thread, comments, rows);
  }

  /**
   * Reads {@code file} ({@code BASENAME-THREAD.log}); the thread is the name after {@code
   * basename-}.
   */
  public static LogFile read(Path file, String basename) throws IOException {
    String name = file.getFileName().toString();
    String thread = name.substring(0, name.length() - ".log".length());
    if (thread.startsWith(basename + "-")) {
      thread = thread.substring(basename.length() + 1);
    }
    return parse(file.toString(), thread, Files.readString(file, StandardCharsets.UTF_8));
  }

  /** Every {@code BASENAME-*.log} of {@code dir}, by thread name. */
  public static Map<String, LogFile> readAll(Path dir, String basename) throws IOException {
    Map<String, LogFile> out = new TreeMap<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, basename + "-*.log")) {
      for (Path p : ds) {
        LogFile f = read(p, basename);
        out.put(f.thread(), f);
      }
    }
    return out;
  }
}
