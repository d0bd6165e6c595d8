package dev.schedlab.lab.output;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes files by way of a temporary file beside the target and an atomic rename. */
public final class AtomicFiles {
  private AtomicFiles() {}

  /** A new temporary file in {@code target}'s directory, named after it. */
  public static Path tempBeside(Path target) throws IOException {
    Path abs = target.toAbsolutePath();
    Path dir = abs.getParent();
    Files.createDirectories(dir);
    return Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
  }

  /** Moves {@code temp} onto {@code target}, atomically where the file system allows. */
  public static void moveInto(Path temp, Path target) throws IOException {
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Writes {@code bytes} to {@code target} atomically: readers see the old file or the new one. */
  public static void write(Path target, byte[] bytes) throws IOException {
    Path temp = tempBeside(target);
    try {
      Files.write(temp, bytes);
      moveInto(temp, target);
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
