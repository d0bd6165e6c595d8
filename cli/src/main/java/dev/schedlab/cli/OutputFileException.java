package dev.schedlab.cli;

import java.io.IOException;
import java.nio.file.Path;

/**
 * An output file ({@code --out}, {@code --trace}) could not be written: bad input, no usage text.
 */
final class OutputFileException extends Exception {
  private static final long serialVersionUID = 1L;

  OutputFileException(String option, Path file, IOException cause) {
    super(
        option
            + ": cannot write "
            + file
            + ": "
            + cause.getClass().getSimpleName()
            + " "
            + cause.getMessage(),
        cause);
  }
}
