package dev.schedlab.cluster;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The plugins of a plugins directory, each by name with its SHA-256: every {@code *.zip} (the hash
 * {@code sha256sum} prints for it) and every plugin directory (a hash over its files), the entries
 * {@code PluginHost} loads. Members whose manifests differ would run different code for the same
 * cell, so a worker whose plugins differ from the coordinator's is refused.
 *
 * @param hashes SHA-256 in hex by entry name
 */
public record PluginManifest(SortedMap<String, String> hashes) implements Serializable {
  public PluginManifest {
    hashes = new TreeMap<>(hashes);
  }

  /** The manifest of {@code dir}; empty when {@code dir} is null or missing. */
  public static PluginManifest of(@Nullable Path dir) throws IOException {
    SortedMap<String, String> out = new TreeMap<>();
    if (dir != null) {
      for (String name : entries(dir)) {
        out.put(name, hash(name, files(dir, name)));
      }
    }
    return new PluginManifest(out);
  }

  /** The names of the plugin entries of {@code dir}: non-hidden zips and directories. */
  static List<String> entries(@Nullable Path dir) throws IOException {
    List<String> names = new ArrayList<>();
    if (dir == null || !Files.isDirectory(dir)) {
      return names;
    }
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.sorted().toList()) {
        String n = p.getFileName().toString();
        if (!n.startsWith(".") && (Files.isDirectory(p) || n.endsWith(".zip"))) {
          names.add(n);
        }
      }
    }
    return names;
  }

  /** The files of entry {@code name} of {@code dir}, by path relative to {@code dir}. */
  static SortedMap<String, byte[]> files(Path dir, String name) throws IOException {
    SortedMap<String, byte[]> out = new TreeMap<>();
    Path root = dir.resolve(name);
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
        out.put(dir.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
      }
    }
    return out;
  }

  /** Writes the files of one entry (as {@link #files} gives them) under {@code dir}. */
  static void write(Path dir, Map<String, byte[]> files) throws IOException {
    Path root = dir.toAbsolutePath().normalize();
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      Path to = root.resolve(f.getKey()).normalize();
      if (!to.startsWith(root) || to.equals(root)) {
        throw new IOException("plugin file " + f.getKey() + " is outside the plugins directory");
      }
      Files.createDirectories(to.getParent());
      Files.write(to, f.getValue());
    }
  }

  /**
   * The hash of entry {@code name} with {@code files}: the SHA-256 of the zip, or of the lines
   * {@code HASH PATH} of a directory's files in path order.
   */
  static String hash(String name, Map<String, byte[]> files) {
    if (files.size() == 1 && files.containsKey(name)) {
      return sha256(files.get(name));
    }
    StringBuilder lines = new StringBuilder();
    new TreeMap<>(files)
        .forEach(
            (path, bytes) -> lines.append(sha256(bytes)).append("  ").append(path).append('\n'));
    return sha256(lines.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /**
   * How this (a worker's) manifest differs from {@code coordinator}'s, naming each entry; null when
   * they are equal.
   */
  @Nullable String differences(PluginManifest coordinator) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String> e : coordinator.hashes.entrySet()) {
      String mine = hashes.get(e.getKey());
      if (mine == null) {
        out.add(e.getKey() + " is missing here");
      } else if (!mine.equals(e.getValue())) {
        out.add(
            e.getKey()
                + " has SHA-256 "
                + mine.substring(0, 16)
                + "... here but "
                + e.getValue().substring(0, 16)
                + "... on the coordinator");
      }
    }
    hashes.keySet().stream()
        .filter(k -> !coordinator.hashes.containsKey(k))
        .forEach(k -> out.add(k + " is here but not on the coordinator"));
    return out.isEmpty() ? null : String.join("; ", out);
  }
}
