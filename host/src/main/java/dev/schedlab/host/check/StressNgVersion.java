package dev.schedlab.host.check;

import dev.schedlab.host.Commands;
import dev.schedlab.host.HostException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The release of the host's stress-ng, as {@code stress-ng --version} prints it ({@code 0.15.06}).
 * The model's stress-ng tool lays out the {@code --mmap} worker of the release its {@code version}
 * parameter names (docs/workloads.md), so check-host passes the host's release to it: the model
 * then runs the tool the host ran.
 *
 * @param text the release as printed, {@code 0.15.06}
 */
public record StressNgVersion(String text) {
  private static final Pattern VERSION =
      Pattern.compile("stress-ng,? version (\\d+)\\.(\\d+)\\.(\\d+)");

  /** The release in {@code --version}'s output, or null when it names none. */
  public static @Nullable StressNgVersion parse(String versionOutput) {
    Matcher m = VERSION.matcher(versionOutput);
    return m.find() ? new StressNgVersion(m.group(1) + "." + m.group(2) + "." + m.group(3)) : null;
  }

  /** The host's stress-ng's release, or null when it is missing or prints none. */
  public static @Nullable StressNgVersion detect() {
    if (Commands.which("stress-ng").isEmpty()) {
      return null;
    }
    try {
      Commands.Output o = Commands.run(List.of("stress-ng", "--version"), 30);
      return parse(o.stdout() + "\n" + o.stderr());
    } catch (HostException e) {
      return null;
    }
  }

  /**
   * The model tool's {@code version} parameter: MMmmpp without the leading zero, 0.15.06 as 1506
   * (the tool lays out V0.17.04's --mmap worker below 1705, the later one from there).
   */
  public long modelVersion() {
    String[] p = text.split("\\.", -1);
    return Long.parseLong(p[0]) * 10_000 + Long.parseLong(p[1]) * 100 + Long.parseLong(p[2]);
  }
}
