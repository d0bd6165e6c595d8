package dev.schedlab.lab.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.RunOptions;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.plugin.testplugins.FaultPlugin.Fault;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A plugin that allocates without bound, in a JVM with a small heap: the OutOfMemoryError is thrown
 * in the plugin's code, the plugin is ejected, its memory becomes garbage and the run completes on
 * mainline.
 */
class FaultInChildJvmTest {
  /** The child: runs one fault and prints the ejections and the simulated time reached. */
  public static void main(String[] args) throws Exception {
    RunResult r = PluginFaultTest.run(Fault.valueOf(args[0]), RunOptions.DEFAULT);
    r.ejections().forEach(e -> System.out.println(e.summary()));
    System.out.println("sim_ns " + r.simNs());
  }

  @Test
  void aPluginThatExhaustsTheHeapIsEjectedAndTheRunCompletes() throws Exception {
    Process p =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx64m",
                    "-XX:+UseSerialGC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    FaultInChildJvmTest.class.getName(),
                    Fault.ALLOCATES.name()))
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out)
        .containsPattern(
            "plugin fault-allocates ejected at simulated time \\d+ ns in H5"
                + " onTick: java.lang.OutOfMemoryError: Java heap space")
        .contains("sim_ns " + PluginFaultTest.DURATION);
  }
}
