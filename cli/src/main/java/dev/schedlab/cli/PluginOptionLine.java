package dev.schedlab.cli;

import dev.schedlab.lab.run.PluginLines;
import picocli.CommandLine;

/**
 * Checks {@code --plugin ID[:key=value;key=value]} (the JMH {@code -prof} option line) as picocli
 * reads it; the lab's {@link PluginLines} applies the lines to a scenario.
 */
final class PluginOptionLine implements CommandLine.ITypeConverter<String> {
  @Override
  public String convert(String line) {
    try {
      return PluginLines.check(line);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }
}
