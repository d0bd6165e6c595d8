package dev.schedlab.host;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * Read access to a machine's /sys and /proc under a root directory ({@code /}, or a fixture tree in
 * tests). Never throws: a missing or unreadable file (lockdown, no permission) is empty.
 */
public final class HostFiles {
  private final Path root;

  public HostFiles(Path root) {
    this.root = root;
  }

  /** The path as it is shown in sources: absolute, as on the machine. */
  public static String shown(String path) {
    return path.startsWith("/") ? path : "/" + path;
  }

  private Path at(String path) {
    return root.resolve(path.startsWith("/") ? path.substring(1) : path);
  }

  /** The file's text, trimmed, or empty. */
  public Optional<String> text(String path) {
    try {
      return Optional.of(Files.readString(at(path), StandardCharsets.UTF_8).trim());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** A gzip-compressed file's text (/proc/config.gz), or empty. */
  public Optional<String> gzipText(String path) {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(at(path)))) {
      return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** A file holding one integer, or empty. */
  public Optional<Long> number(String path) {
    return text(path)
        .flatMap(
            t -> {
              try {
                return Optional.of(Long.parseLong(t));
              } catch (NumberFormatException e) {
                return Optional.empty();
              }
            });
  }

  /** Names of the entries of a directory matching {@code regex}, in natural number order. */
  public List<String> list(String dir, String regex) {
    List<String> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(at(dir))) {
      s.map(p -> p.getFileName().toString()).filter(n -> n.matches(regex)).forEach(out::add);
    } catch (IOException | RuntimeException e) {
      return out;
    }
    out.sort(
        (a, b) -> {
          String na = a.replaceAll("\\D", "");
          String nb = b.replaceAll("\\D", "");
          if (!na.isEmpty() && !nb.isEmpty() && na.length() < 10 && nb.length() < 10) {
            return Long.compare(Long.parseLong(na), Long.parseLong(nb));
          }
          return a.compareTo(b);
        });
    return out;
  }
}
