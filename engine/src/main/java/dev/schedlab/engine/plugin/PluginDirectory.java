package dev.schedlab.engine.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin candidates of a plugins directory: every {@code *.zip} (expanded into a private
 * temporary directory, never next to the zip) and every non-hidden sub-directory, in file-name
 * order. A zip that cannot be read becomes a candidate with a problem.
 */
final class PluginDirectory implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PluginDirectory.class);

  /**
   * One plugin candidate.
   *
   * @param source the zip or directory as found
   * @param dir the exploded plugin directory, or null when {@code problem} is set
   * @param problem why the candidate cannot load, or null
   */
  record Candidate(Path source, @Nullable Path dir, @Nullable String problem) {}

  private final Path workDir;
  private final List<Candidate> candidates;

  private PluginDirectory(Path workDir, List<Candidate> candidates) {
    this.workDir = workDir;
    this.candidates = candidates;
  }

  /** Scans {@code pluginsDir}; null or missing gives no candidates. */
  static PluginDirectory scan(@Nullable Path pluginsDir) {
    Path work;
    try {
      work = Files.createTempDirectory("schedlab-plugins-");
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot create a directory to expand plugins into under "
              + System.getProperty("java.io.tmpdir")
              + " (java.io.tmpdir): "
              + e,
          e);
    }
    List<Candidate> found = new ArrayList<>();
    if (pluginsDir != null && Files.isDirectory(pluginsDir)) {
      List<Path> entries;
      try (Stream<Path> s = Files.list(pluginsDir)) {
        entries = s.sorted(Comparator.comparing(p -> p.getFileName().toString())).toList();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list plugins directory " + pluginsDir, e);
      }
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.startsWith(".")) {
          continue;
        }
        if (Files.isDirectory(entry)) {
          found.add(new Candidate(entry, entry, null));
        } else if (name.endsWith(".zip")) {
          found.add(expand(entry, work.resolve(name.substring(0, name.length() - 4))));
        } else {
          LOG.debug("Ignoring {}: plugins are zips or directories", entry);
        }
      }
    } else if (pluginsDir != null) {
      LOG.info("Plugins directory {} does not exist: built-ins only", pluginsDir);
    }
    return new PluginDirectory(work, List.copyOf(found));
  }

  private static Candidate expand(Path zip, Path target) {
    try (ZipFile zf = new ZipFile(zip.toFile())) {
      Files.createDirectories(target);
      Enumeration<? extends ZipEntry> entries = zf.entries();
      while (entries.hasMoreElements()) {
        ZipEntry e = entries.nextElement();
        Path out = target.resolve(e.getName()).normalize();
        if (!out.startsWith(target)) {
          return new Candidate(zip, null, "zip entry escapes the plugin directory: " + e.getName());
        }
        if (e.isDirectory()) {
          Files.createDirectories(out);
        } else {
          Files.createDirectories(out.getParent());
          try (InputStream in = zf.getInputStream(e)) {
            Files.copy(in, out);
          }
        }
      }
      return new Candidate(zip, target, null);
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot expand plugin zip {}: {}", zip, e.toString());
      return new Candidate(zip, null, "corrupt or unreadable zip (" + e.getMessage() + ")");
    }
  }

  /** The private directory zips are expanded into (also PF4J's plugins root). */
  Path workDir() {
    return workDir;
  }

  List<Candidate> candidates() {
    return candidates;
  }

  @Override
  public void close() {
    try (Stream<Path> s = Files.walk(workDir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      LOG.warn("Cannot delete {}: {}", workDir, e.toString());
    }
  }
}
