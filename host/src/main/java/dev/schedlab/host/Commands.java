package dev.schedlab.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/** Runs host commands (the probe, the real tools) and finds programs on the PATH. */
public final class Commands {
  /** A finished command: exit code and its output. */
  public record Output(int exit, String stdout, String stderr) {}

  private static final List<Process> LIVE = new ArrayList<>();

  static {
    // An interrupted run (Ctrl-C) leaves no hog or tool behind.
    Runtime.getRuntime().addShutdownHook(new Thread(Commands::killAll, "schedlab-host-cleanup"));
  }

  private Commands() {}

  /** The program's path on the PATH, if it is there. */
  public static Optional<Path> which(String program) {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String dir : path.split(":", -1)) { // an empty entry, trailing too, is "." (POSIX)
      Path p = Path.of(dir.isEmpty() ? "." : dir, program);
      if (p.toFile().canExecute()) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** Runs {@code argv} to completion, at most {@code timeoutS} seconds. */
  public static Output run(List<String> argv, long timeoutS) throws HostException {
    Path out;
    Path err;
    try {
      out = Files.createTempFile("schedlab-host", ".out");
      err = Files.createTempFile("schedlab-host", ".err");
    } catch (IOException e) {
      throw new HostException("cannot create a temporary file: " + e.getMessage(), e);
    }
    ProcessBuilder pb =
        new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = start(pb, argv);
    try {
      if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
        stop(p);
        throw new HostException(
            String.join(" ", argv) + ": still running after " + timeoutS + " s; stopped");
      }
      return new Output(
          p.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new HostException(String.join(" ", argv) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop(p);
      throw new HostException(String.join(" ", argv) + ": interrupted", e);
    } finally {
      forget(p);
      try {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      } catch (IOException e) {
        // a leftover temporary file is harmless
      }
    }
  }

  /** Starts a background command (a hog), its output discarded. */
  public static Process background(List<String> argv) throws HostException {
    ProcessBuilder pb =
        new ProcessBuilder(argv)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    return start(pb, argv);
  }

  /** Stops a background command and its children. */
  public static void stop(@Nullable Process p) {
    if (p == null) {
      return;
    }
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
    try {
      p.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    forget(p);
  }

  private static Process start(ProcessBuilder pb, List<String> argv) throws HostException {
    try {
      Process p = pb.start();
      synchronized (LIVE) {
        LIVE.add(p);
      }
      return p;
    } catch (IOException e) {
      throw new HostException(String.join(" ", argv) + ": cannot start: " + e.getMessage(), e);
    }
  }

  private static void forget(Process p) {
    synchronized (LIVE) {
      LIVE.remove(p);
    }
  }

  private static void killAll() {
    List<Process> all;
    synchronized (LIVE) {
      all = new ArrayList<>(LIVE);
    }
    for (Process p : all) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }
}
