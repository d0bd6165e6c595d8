package dev.schedlab.it;

import dev.schedlab.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

/** Runs the schedlab CLI in-process and captures what it prints. */
record Cli(int exitCode, String out, String err) {
  static Cli run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Cli(code, out.toString(), err.toString());
  }

  static Path root() {
    return Path.of(System.getProperty("schedlab.it.root", ".."));
  }

  static Path pluginsDir() {
    return Path.of(System.getProperty("schedlab.it.plugins", "target/plugins"));
  }
}
