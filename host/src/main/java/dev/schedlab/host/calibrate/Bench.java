package dev.schedlab.host.calibrate;

import dev.schedlab.host.HostException;
import java.util.Map;

/**
 * Where the calibration's real figures come from: the probe on this machine, or (in tests) any
 * source that answers the probe's arguments with its {@code key=value} output.
 */
interface Bench {
  /** Runs one micro-benchmark, arguments as the probe's usage says. */
  Map<String, String> run(String... args) throws HostException;
}
