package dev.schedlab.host;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The running kernel's build configuration: /proc/config.gz, else /boot/config-RELEASE. */
final class KernelConfig {
  private final Map<String, String> values = new HashMap<>();
  private final String source;

  private KernelConfig(String text, String source) {
    this.source = source;
    for (String line : text.split("\n", -1)) {
      int eq = line.indexOf('=');
      if (line.startsWith("CONFIG_") && eq > 0) {
        values.put(line.substring(0, eq), line.substring(eq + 1).replace("\"", ""));
      }
    }
  }

  static KernelConfig read(HostFiles f, String release) {
    Optional<String> gz = f.gzipText("/proc/config.gz");
    if (gz.isPresent()) {
      return new KernelConfig(gz.get(), "/proc/config.gz");
    }
    String boot = "/boot/config-" + release;
    return f.text(boot)
        .map(t -> new KernelConfig(t, boot))
        .orElseGet(() -> new KernelConfig("", ""));
  }

  /** Whether the configuration could be read. */
  boolean readable() {
    return !source.isEmpty();
  }

  String source() {
    return source;
  }

  /** Whether {@code CONFIG_name=y}. */
  boolean on(String name) {
    return "y".equals(values.get("CONFIG_" + name));
  }

  Optional<String> value(String name) {
    return Optional.ofNullable(values.get("CONFIG_" + name));
  }
}
