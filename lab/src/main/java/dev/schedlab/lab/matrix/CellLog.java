package dev.schedlab.lab.matrix;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code cells.jsonl}: one JSON line per finished cell, appended and forced to disk as each cell
 * finishes, so that a matrix stopped at any point keeps every finished cell. A line cut short by
 * the stop (no final newline) is dropped when the log is opened; the cell it described runs again.
 */
public final class CellLog implements AutoCloseable {
  /** The file name inside the output directory. */
  public static final String FILE = "cells.jsonl";

  private final Path file;
  private final Map<String, CellResult> finished;
  private final int dropped;
  private final FileChannel channel;

  private CellLog(Path file, Map<String, CellResult> finished, int dropped, FileChannel channel) {
    this.file = file;
    this.finished = finished;
    this.dropped = dropped;
    this.channel = channel;
  }

  /** Opens (creating) {@code dir/cells.jsonl} and reads the cells it already holds. */
  public static CellLog open(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(FILE);
    Map<String, CellResult> finished = new LinkedHashMap<>();
    int dropped = 0;
    if (Files.exists(file)) {
      byte[] bytes = Files.readAllBytes(file);
      int end = bytes.length;
      while (end > 0 && bytes[end - 1] != '\n') {
        end--;
      }
      if (end < bytes.length) {
        dropped++;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
          ch.truncate(end);
        }
      }
      for (String line : new String(bytes, 0, end, StandardCharsets.UTF_8).split("\n", -1)) {
        if (line.isBlank()) {
          continue;
        }
        try {
          CellResult r = CellResult.fromJsonLine(line);
          finished.put(r.runId(), r);
        } catch (IOException e) {
          dropped++;
        }
      }
    }
    FileChannel ch =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    return new CellLog(file, finished, dropped, ch);
  }

  /** The cells read from the file and appended since, by run id (a later line wins). */
  public synchronized Map<String, CellResult> finished() {
    return Map.copyOf(finished);
  }

  /** Lines that could not be read when the log was opened (a cut-short last line, garbage). */
  public int dropped() {
    return dropped;
  }

  /** The file. */
  public Path file() {
    return file;
  }

  /** Appends {@code jsonLine} for {@code result} and forces it to disk before returning. */
  synchronized void append(CellResult result, String jsonLine) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap((jsonLine + "\n").getBytes(StandardCharsets.UTF_8));
    while (buf.hasRemaining()) {
      channel.write(buf);
    }
    channel.force(false);
    finished.put(result.runId(), result);
  }

  @Override
  public synchronized void close() throws IOException {
    channel.close();
  }
}
