package dev.schedlab.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the CLI in-process and captures stdout, stderr and the exit code. */
final class CliTestSupport {
  record Outcome(int code, String out, String err) {}

  private CliTestSupport() {}

  static Outcome run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
    return new Outcome(code, out.toString(), err.toString());
  }
}
