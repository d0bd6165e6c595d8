package dev.schedlab.cli;

import dev.schedlab.lab.output.AtomicFiles;
import java.io.IOException;
import java.nio.file.Path;

/** Where the files a command writes ({@code --out} and the like) go. */
interface OutputFiles {
  /** Writes {@code bytes} to {@code file}, replacing it; nothing half-written on failure. */
  void write(Path file, byte[] bytes) throws IOException;

  /**
   * Writes {@code text} (UTF-8) to {@code file} named by {@code option}, as a user error if it
   * fails.
   */
  default void write(String option, Path file, String text) throws OutputFileException {
    try {
      write(file, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new OutputFileException(option, file, e);
    }
  }

  /** To the file system, through a temporary file renamed over the target. */
  OutputFiles ATOMIC = AtomicFiles::write;
}
