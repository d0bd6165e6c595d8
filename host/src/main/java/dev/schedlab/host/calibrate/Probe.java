package dev.schedlab.host.calibrate;

import dev.schedlab.host.Commands;
import dev.schedlab.host.HostException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The calibration micro-benchmarks: {@code schedlab-probe.c}, shipped in this jar, compiled once
 * with the host's C compiler ({@code $CC}, else {@code cc}) into the user's cache directory and run
 * per measurement. Its output is {@code key=value} lines.
 */
final class Probe implements Bench {
  private static final String SOURCE = "schedlab-probe.c";
  private final Path binary;

  private Probe(Path binary) {
    this.binary = binary;
  }

  /** Compiles the probe unless the cache has this version of it. */
  static Probe build() throws HostException {
    byte[] source;
    try (InputStream in = Probe.class.getResourceAsStream(SOURCE)) {
      if (in == null) {
        throw new HostException(SOURCE + " is missing from the schedlab-host jar");
      }
      source = in.readAllBytes();
    } catch (IOException e) {
      throw new HostException("cannot read " + SOURCE + ": " + e.getMessage(), e);
    }
    Path dir = cacheDir();
    Path binary = dir.resolve("schedlab-probe-" + sha(source).substring(0, 12));
    if (Files.isExecutable(binary)) {
      return new Probe(binary);
    }
    String cc = System.getenv().getOrDefault("CC", "cc");
    if (Commands.which(cc).isEmpty()) {
      throw new HostException(
          "calibration compiles a small C program and needs a C compiler: '"
              + cc
              + "' is not on the PATH (Debian: apt install gcc; or set CC)");
    }
    try {
      Files.createDirectories(dir);
      Path src = Files.createTempFile(dir, "schedlab-probe", ".c");
      Files.write(src, source);
      Path tmp = Files.createTempFile(dir, "schedlab-probe", ".bin");
      Commands.Output o =
          Commands.run(List.of(cc, "-O2", "-o", tmp.toString(), src.toString()), 120);
      Files.deleteIfExists(src);
      if (o.exit() != 0) {
        Files.deleteIfExists(tmp);
        throw new HostException(cc + " failed to compile " + SOURCE + ":\n" + o.stderr().strip());
      }
      Files.move(tmp, binary, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return new Probe(binary);
    } catch (IOException e) {
      throw new HostException("cannot build the probe in " + dir + ": " + e.getMessage(), e);
    }
  }

  /** Runs one benchmark: {@code args} as the probe's usage says; its key=value lines. */
  @Override
  public Map<String, String> run(String... args) throws HostException {
    List<String> argv = new ArrayList<>();
    argv.add(binary.toString());
    argv.addAll(List.of(args));
    Commands.Output o = Commands.run(argv, 600);
    if (o.exit() != 0) {
      throw new HostException(
          "schedlab-probe "
              + String.join(" ", args)
              + " failed (exit "
              + o.exit()
              + "): "
              + o.stderr().strip());
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String line : o.stdout().split("\n", -1)) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        out.put(line.substring(0, eq), line.substring(eq + 1).trim());
      }
    }
    return out;
  }

  /** A number the probe printed. */
  static long number(Map<String, String> out, String key) throws HostException {
    String v = out.get(key);
    if (v == null) {
      throw new HostException("schedlab-probe printed no " + key + ": " + out);
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new HostException("schedlab-probe printed " + key + "=" + v + ", not a number", e);
    }
  }

  private static Path cacheDir() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("schedlab");
  }

  private static String sha(byte[] b) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
