package dev.schedlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.plugin.PluginZip;
import dev.schedlab.engine.plugin.testplugins.LoopingPlugin;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A misbehaving plugin through the CLI: ejected (exit 3), failed (exit 1), or stopped. */
class PluginSafetyCliTest {
  @TempDir Path tmp;

  private Path scenario() throws Exception {
    Path s = tmp.resolve("s.yaml");
    Files.writeString(
        s,
        String.join(
            "\n",
            "duration: 20ms",
            "machine: {sockets: 1, cores_per_socket: 2, threads_per_core: 1}",
            "workload: {tasks: [{name: hog, program: [{user: 5ms}]},"
                + " {name: nap, program: [{user: 100us}, {sleep: 200us}]}]}",
            ""));
    return s;
  }

  private Path throwingPlugin() {
    Path plugins = tmp.resolve("plugins");
    plugins.toFile().mkdirs();
    PluginZip.plugin("thrower")
        .with("hooks", "H1_PICK_OVERRIDE")
        .with("override", "H1_PICK_OVERRIDE")
        .with("throw", "H1")
        .zipInto(plugins);
    return plugins;
  }

  @Test
  void anEjectedPluginIsReportedAndTheRunExitsWithItsOwnCode() throws Exception {
    Path plugins = throwingPlugin();
    Path out = tmp.resolve("r.json");
    CliTestSupport.Outcome o =
        CliTestSupport.run(
            "run",
            scenario().toString(),
            "--plugins-dir",
            plugins.toString(),
            "--plugin",
            "thrower",
            "--out",
            out.toString());
    assertThat(o.code()).as(o.err()).isEqualTo(Main.EJECTED).isEqualTo(3);
    assertThat(o.out())
        .containsPattern(
            "ejected +plugin thrower ejected at simulated time \\d+ ns"
                + " in H1 pickOverride: java.lang.IllegalStateException: H1 exploded")
        .contains("simulated  0.020000 s");
    assertThat(o.err()).contains("schedlab: plugin thrower ejected at simulated time");
    assertThat(Files.readString(out)).contains("\"ejections\"", "\"hook\" : \"H1 pickOverride\"");
  }

  @Test
  void underFailTheRunStopsWithoutOutputFiles() throws Exception {
    Path plugins = throwingPlugin();
    Path out = tmp.resolve("r.json");
    Path trace = tmp.resolve("t.trace");
    CliTestSupport.Outcome o =
        CliTestSupport.run(
            "run",
            scenario().toString(),
            "--plugins-dir",
            plugins.toString(),
            "--plugin",
            "thrower",
            "--on-plugin-error",
            "fail",
            "--out",
            out.toString(),
            "--trace",
            trace.toString());
    assertThat(o.code()).isEqualTo(Main.RUN_FAILED);
    assertThat(o.err())
        .containsPattern(
            "run failed: plugin thrower failed in hook H1 pickOverride:"
                + " .*H1 exploded.* \\(at simulated time \\d+ ns\\)");
    assertThat(o.out()).isEmpty();
    try (var files = Files.list(tmp)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("s.yaml", "plugins");
    }
  }

  @Test
  void aHookThatNeverReturnsStopsTheProcessWithAReportAndNoOutputFiles() throws Exception {
    Path plugins = tmp.resolve("plugins");
    plugins.toFile().mkdirs();
    PluginZip.of("looping", LoopingPlugin.class).zipInto(plugins);
    Path out = tmp.resolve("r.json");
    Path trace = tmp.resolve("t.trace");
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "run",
                scenario().toString(),
                "--plugins-dir",
                plugins.toString(),
                "--plugin",
                "looping",
                "--set",
                "kernel.params.plugin.hook_budget=300ms",
                "--out",
                out.toString(),
                "--trace",
                trace.toString()));
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(tmp.resolve("stdout").toFile())
            .redirectError(tmp.resolve("stderr").toFile())
            .start();
    boolean ended = p.waitFor(2, TimeUnit.MINUTES);
    if (!ended) {
      p.destroyForcibly();
    }
    assertThat(ended).as("the process ended").isTrue();
    String err = Files.readString(tmp.resolve("stderr"), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(err).isEqualTo(Main.RUN_FAILED);
    assertThat(err)
        .containsPattern(
            "schedlab: run failed: plugin looping did not return from hook"
                + " H5 onTick within its wall-clock budget of 0.300 s \\(plugin.hook_budget\\) at simulated"
                + " time \\d+ ns; the run was stopped");
    assertThat(Files.readString(tmp.resolve("stdout"))).isEmpty();
    try (var files = Files.list(tmp)) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .containsExactlyInAnyOrder("s.yaml", "plugins", "stdout", "stderr");
    }
  }
}
