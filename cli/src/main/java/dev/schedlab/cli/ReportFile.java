package dev.schedlab.cli;

import dev.schedlab.report.HtmlReport;
import dev.schedlab.report.Section;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Writes the HTML report of an option ({@code --out} of report, {@code --report} elsewhere). */
final class ReportFile {
  private ReportFile() {}

  static void write(String option, Path file, List<Section> sections) throws OutputFileException {
    try {
      HtmlReport.write(file, sections);
    } catch (IOException e) {
      throw new OutputFileException(option, file, e);
    }
  }
}
