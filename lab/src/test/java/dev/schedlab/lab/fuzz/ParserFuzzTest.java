package dev.schedlab.lab.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.lab.matrix.MatrixFile;
import dev.schedlab.lab.matrix.MatrixPlan;
import dev.schedlab.lab.matrix.MatrixSpec;
import dev.schedlab.lab.scenario.ScenarioException;
import dev.schedlab.lab.scenario.ScenarioLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Property-based fuzzing of every input parser: scenario files (YAML and JSON), rt-app JSON
 * (through {@link ScenarioLoader}, whatever binder is behind it), tool argument lines, {@code
 * --set} lines, matrix files and plugin option lines; inputs generated from each format's
 * vocabulary and mutations of the project's own valid examples. Each input must be accepted, or
 * rejected with the project's error naming where (file and line, or the {@code --set} line) and,
 * for fields, which one; no other exception may escape. About 11,000 inputs per run.
 */
class ParserFuzzTest {
  /** A file position in a message: {@code SOURCE:LINE[:COL]: }. */
  private static final Pattern AT_LINE =
      Pattern.compile("^fuzz\\.(yaml|json):\\d+(:\\d+)?: .+", Pattern.DOTALL);

  private static final Pattern AT_SET = Pattern.compile("^--set .*: .+", Pattern.DOTALL);

  private static final Path ROOT = Path.of(System.getProperty("schedlab.root", ".."));
  private static List<String> yamlExamples;
  private static List<String> jsonExamples;
  private static String matrixExample;
  private static Path matrixDir;

  @BeforeContainer
  static void readExamples() throws IOException {
    yamlExamples = new ArrayList<>();
    for (Path dir : List.of(ROOT.resolve("scenarios"), ROOT.resolve("examples"))) {
      try (Stream<Path> s = Files.list(dir)) {
        for (Path p : s.sorted().toList()) {
          String n = p.getFileName().toString();
          if (!n.endsWith(".yaml")) {
            continue;
          }
          String text = Files.readString(p);
          // stress-ng --mmap builds every page's kernel path (seconds per parse at its default
          // size): its lines are fuzzed below with small regions instead.
          if (!n.endsWith(".experiment.yaml")
              && !n.equals("matrix.yaml")
              && !text.contains("--mmap")) {
            yamlExamples.add(text);
          }
        }
      }
    }
    jsonExamples =
        List.of(
            Files.readString(ROOT.resolve("scenarios/rt-app-example.json")),
            new ObjectMapper()
                .writerWithDefaultPrettyPrinter()
                .writeValueAsString(
                    new YAMLMapper()
                        .readTree(Files.readString(ROOT.resolve("examples/quickstart.yaml")))));
    matrixExample = Files.readString(ROOT.resolve("examples/matrix.yaml"));
    matrixDir = Files.createTempDirectory("schedlab-fuzz-");
    Files.createDirectories(matrixDir.resolve("ex"));
    Files.createDirectories(matrixDir.resolve("scenarios"));
    Files.copy(ROOT.resolve("examples/quickstart.yaml"), matrixDir.resolve("ex/quickstart.yaml"));
    Files.copy(
        ROOT.resolve("scenarios/cyclictest.yaml"), matrixDir.resolve("scenarios/cyclictest.yaml"));
  }

  // ---------------------------------------------------------------- the oracle

  /** Parses a scenario text; only success or a located ScenarioException may come out. */
  private static void scenario(String text, boolean yaml, List<String> sets) {
    String source = yaml ? "fuzz.yaml" : "fuzz.json";
    try {
      ScenarioLoader.parse(source, text, yaml, "fuzz", ROOT.resolve("scenarios"), null, sets);
    } catch (ScenarioException e) {
      assertThat(e.getMessage())
          .as("a rejection names where")
          .matches(m -> AT_LINE.matcher(m).matches() || AT_SET.matcher(m).matches());
    }
  }

  // ---------------------------------------------------------------- mutations

  /** One edit of a text: where (a fraction of its length), what, and with which token. */
  record Edit(int op, double at, int length, int token) {}

  private static final String[] TOKENS = {
    "-1",
    "0",
    "1",
    "1e309",
    "99999999999999999999",
    "9223372036854775808",
    "-9223372036854775809",
    "2147483648",
    ".nan",
    ".inf",
    "-.inf",
    "~",
    "null",
    "true",
    "false",
    "[]",
    "{}",
    "''",
    "\"\"",
    "1ms",
    "-5us",
    "0ns",
    "1h",
    "1.5",
    "1e3s",
    "abc",
    "\"\\u0000\"",
    "0x10",
    "1_000",
    "+1",
    "1000000000000s",
    "[1, [2]]",
    "{a: 1}",
    "&a",
    "*a",
    "!!binary x",
    "? k",
    "- ",
    ": ",
    "#",
    "|",
    ">",
    "%",
    "@",
    "`",
    "\t",
    "\n",
    "\n  ",
    ",",
    "cpus",
    "count",
    "program",
    "user",
    "sleep",
    "policy",
    "ext",
    "fifo",
    "deadline",
    "exit",
    "loop",
    "body",
    "wake",
    "block",
    "call",
    "tools",
    "tasks",
    "rtapp",
    "file",
    "preset",
    "sockets",
    "cores_per_socket",
    "threads_per_core",
    "idle_states",
    "0-1023",
    "5-2",
    "1,,2",
    "per_cpu",
    "rt_priority",
    "dl_runtime",
    "run",
    "timer",
    "period",
    "instance",
    "phases",
    "\"run\"",
    "\"loop\"",
    "\"timer\"",
    "\"ref\"",
    "\"instance\"",
    "\"cpus\"",
    "\"policy\"",
    "{\"run\": -1}"
  };

  @Provide
  Arbitrary<List<Edit>> edits() {
    Arbitrary<Edit> edit =
        Combinators.combine(
                Arbitraries.integers().between(0, 6),
                Arbitraries.doubles().between(0, 1),
                Arbitraries.integers().between(1, 40),
                Arbitraries.integers().between(0, TOKENS.length - 1))
            .as(Edit::new);
    return edit.list().ofMinSize(1).ofMaxSize(4);
  }

  static String mutate(String text, List<Edit> edits) {
    String s = text;
    for (Edit e : edits) {
      int at = (int) (e.at() * s.length());
      int end = Math.min(s.length(), at + e.length());
      String tok = TOKENS[e.token()];
      List<String> lines = new ArrayList<>(List.of(s.split("\n", -1)));
      int line = Math.min(lines.size() - 1, (int) (e.at() * lines.size()));
      s =
          switch (e.op()) {
            case 0 -> s.substring(0, at) + s.substring(end); // delete a span
            case 1 -> s.substring(0, at) + tok + s.substring(at); // insert a token
            case 2 -> s.substring(0, at) + tok + s.substring(end); // replace a span
            case 3 -> { // replace the value after a colon on that line
              String l = lines.get(line);
              int colon = l.indexOf(':');
              lines.set(line, colon < 0 ? l + tok : l.substring(0, colon + 1) + " " + tok);
              yield String.join("\n", lines);
            }
            case 4 -> { // duplicate a line
              lines.add(line, lines.get(line));
              yield String.join("\n", lines);
            }
            case 5 -> { // drop a line
              lines.remove(line);
              yield String.join("\n", lines);
            }
            default -> { // change its indentation
              lines.set(line, " ".repeat(e.length() % 5) + lines.get(line).stripLeading());
              yield String.join("\n", lines);
            }
          };
    }
    return s;
  }

  @Property(tries = 3000)
  void mutatedScenarioFilesAreAcceptedOrRejectedWithALocatedError(
      @ForAll("edits") List<Edit> edits, @ForAll int which) {
    scenario(
        mutate(yamlExamples.get(Math.floorMod(which, yamlExamples.size())), edits),
        true,
        List.of());
  }

  @Property(tries = 1500)
  void mutatedJsonAndRtAppFilesAreAcceptedOrRejectedWithALocatedError(
      @ForAll("edits") List<Edit> edits, @ForAll boolean rtApp) {
    scenario(mutate(jsonExamples.get(rtApp ? 0 : 1), edits), false, List.of());
  }

  // ---------------------------------------------------------------- generated documents

  private static final String[] SCENARIO_KEYS = {
    "name",
    "seed",
    "duration",
    "machine",
    "kernel",
    "workload",
    "plugins",
    "preset",
    "sockets",
    "cores_per_socket",
    "threads_per_core",
    "cores_per_llc",
    "numa_nodes",
    "idle_states",
    "idle_governor",
    "isolated_cpus",
    "virtualized",
    "disabled_states",
    "mitigations",
    "preempt",
    "hz",
    "features",
    "params",
    "latency_limit",
    "tasks",
    "tools",
    "samples",
    "rtapp",
    "count",
    "policy",
    "nice",
    "rt_priority",
    "dl_runtime",
    "dl_deadline",
    "dl_period",
    "cpus",
    "per_cpu",
    "kthread",
    "process",
    "start",
    "program",
    "user",
    "kernel",
    "sleep",
    "sleep_until",
    "block",
    "wake",
    "call",
    "loop",
    "mark",
    "cgroup",
    "cgroups",
    "exit",
    "body",
    "period",
    "sample",
    "duration",
    "cpu",
    "cost",
    "wait",
    "max",
    "id",
    "options",
    "uniform",
    "exp",
    "normal",
    "const",
    "waitq",
    "sync",
    "preemptible",
    "irqs_off",
    "ends",
    "cyclictest",
    "stress-ng",
    "hackbench",
    "tbench",
    "perf",
    "rtla",
    "ipistorm",
    "args",
    "timer_slack",
    "TTWU_QUEUE",
    "cost.sched_base",
    "watchdog.timeout",
    "plugin.hook_budget"
  };

  private static final String[] RTAPP_KEYS = {
    "tasks",
    "global",
    "resources",
    "instance",
    "loop",
    "run",
    "runtime",
    "sleep",
    "timer",
    "ref",
    "period",
    "mode",
    "policy",
    "priority",
    "cpus",
    "phases",
    "lock",
    "unlock",
    "wait",
    "signal",
    "broad",
    "barrier",
    "suspend",
    "resume",
    "mem",
    "iorun",
    "yield",
    "dl-runtime",
    "dl-period",
    "dl-deadline",
    "duration",
    "calibration",
    "default_policy",
    "pi_enabled",
    "lock_pages",
    "logdir",
    "log_basename",
    "delay",
    "nice",
    "util_min",
    "util_max",
    "taskgroup",
    "fork",
    "mutex",
    "SCHED_FIFO",
    "SCHED_OTHER",
    "SCHED_DEADLINE",
    "SCHED_RR",
    "absolute",
    "relative"
  };

  @Provide
  Arbitrary<Object> scenarioTrees() {
    return tree(SCENARIO_KEYS, 4);
  }

  @Provide
  Arbitrary<Object> rtAppTrees() {
    return tree(RTAPP_KEYS, 5).map(t -> Map.of("tasks", t));
  }

  /** Nested maps and lists over {@code keys}, with scalars drawn from {@link #TOKENS}. */
  private static Arbitrary<Object> tree(String[] keys, int depth) {
    Arbitrary<Object> scalar =
        Arbitraries.oneOf(
            Arbitraries.of(TOKENS).map(t -> (Object) t),
            Arbitraries.longs().map(l -> (Object) l),
            Arbitraries.integers().between(-3, 300).map(i -> (Object) i),
            Arbitraries.of(keys).map(k -> (Object) k),
            Arbitraries.of(true, false).map(b -> (Object) b),
            Arbitraries.doubles().map(d -> (Object) d));
    if (depth == 0) {
      return scalar;
    }
    Arbitrary<Object> child = Arbitraries.lazy(() -> tree(keys, depth - 1));
    Arbitrary<Object> map =
        Arbitraries.maps(Arbitraries.of(keys), child)
            .ofMaxSize(5)
            .map(m -> (Object) new LinkedHashMap<>(m));
    Arbitrary<Object> list = child.list().ofMaxSize(4).map(l -> (Object) l);
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(2, scalar),
        net.jqwik.api.Tuple.of(4, map),
        net.jqwik.api.Tuple.of(2, list));
  }

  private static String yaml(Object tree) {
    try {
      return new YAMLMapper().writeValueAsString(tree);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String json(Object tree) {
    try {
      return new ObjectMapper().writeValueAsString(tree);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Property(tries = 2000)
  void generatedScenariosAreAcceptedOrRejectedWithALocatedError(
      @ForAll("scenarioTrees") Object tree, @ForAll boolean asJson) {
    scenario(asJson ? json(tree) : yaml(tree), !asJson, List.of());
  }

  @Property(tries = 1000)
  void generatedRtAppFilesAreAcceptedOrRejectedWithALocatedError(
      @ForAll("rtAppTrees") Object tree) {
    scenario(json(tree), false, List.of());
  }

  // ---------------------------------------------------------------- tool argument lines

  private static final String[] TOOL_LINES = {
    "cyclictest: -i 100 -d 100 --latency=1000 -t -m",
    "cyclictest: -i 100 -t -a 1-3 -p 95 -h 200 -n -D 1s -l 1000 -q --smp",
    "hackbench: -g 2 -f 3 -l 4 -p",
    "hackbench: -g 4 -l 50 -T -P -s 100 --datasize 64",
    "ipistorm: numipi=100000 single=1 offset=8 cpulist=8 wait=1",
    "perf: bench sched pipe -l 20000 -T",
    "rtla: timerlat top -q -P f:95 -c 1-3 -H 1 -d 1s",
    "stress-ng: --cpu 0 --cpu-load 80 --cpu-load-slice 10 --taskset 1-3",
    "stress-ng: --cyclic 1 --timeout 300 --cyclic-policy fifo --mmap 1 --mmap-bytes 64k",
    "stress-ng: --mmap 2 --mmap-bytes 16k --mmap-mprotect --mmap-write-check",
    "tbench: 4 localhost",
    "schedlab-probe: --help"
  };

  private static final String[] ARG_TOKENS = {
    "-i",
    "-d",
    "-t",
    "-m",
    "-a",
    "-p",
    "-h",
    "-n",
    "-D",
    "-l",
    "-q",
    "-g",
    "-f",
    "-T",
    "-P",
    "-s",
    "-c",
    "-H",
    "--latency=",
    "--smp",
    "--cpu",
    "--cpu-load",
    "--cpu-load-slice",
    "--taskset",
    "--cyclic",
    "--timeout",
    "--mmap-bytes",
    "--cyclic-policy",
    "--datasize",
    "--pipe",
    "--threads",
    "--loops",
    "=",
    "--",
    "-",
    "0",
    "1",
    "-1",
    "100",
    "1000000000000",
    "99999999999999999999",
    "1-3",
    "3-1",
    "0-1023",
    "1,,2",
    "f:95",
    "r:0",
    "x:1",
    "1ms",
    "1s",
    "-5s",
    "1M",
    "1G",
    "999T",
    "numipi=",
    "single=",
    "offset=",
    "cpulist=",
    "wait=",
    "timerlat",
    "top",
    "hist",
    "bench",
    "sched",
    "pipe",
    "localhost",
    "\"",
    "'",
    "\\",
    "%",
    ";",
    "NaN",
    "1e9",
    "1.5",
    "fifo",
    "rr",
    "deadline"
  };

  @Provide
  Arbitrary<String> toolLines() {
    Arbitrary<String> generated =
        Combinators.combine(
                Arbitraries.of(
                    "cyclictest",
                    "hackbench",
                    "ipistorm",
                    "perf",
                    "rtla",
                    "stress-ng",
                    "tbench",
                    "schedlab-probe"),
                Arbitraries.of(ARG_TOKENS).list().ofMaxSize(10),
                Arbitraries.of("", " ", "=", ","))
            .as((tool, toks, sep) -> tool + ": " + String.join(" ", toks).replace(" =", sep));
    Arbitrary<String> mutated =
        Combinators.combine(
                Arbitraries.of(TOOL_LINES),
                Arbitraries.of(ARG_TOKENS).list().ofMaxSize(3),
                Arbitraries.integers().between(0, 12))
            .as(
                (line, extra, cut) -> {
                  String[] parts = line.split(" ");
                  List<String> out = new ArrayList<>(List.of(parts));
                  if (out.size() > 2 && cut % 3 == 0) {
                    out.remove(1 + cut % (out.size() - 1));
                  }
                  out.addAll(Math.min(out.size(), 1 + cut % out.size()), extra);
                  return String.join(" ", out);
                });
    return Arbitraries.oneOf(generated, mutated);
  }

  @Property(tries = 1500)
  void toolArgumentLinesAreAcceptedOrRejectedWithALocatedError(@ForAll("toolLines") String line) {
    // A stress-ng --mmap worker's region is kept small: its set-up cost grows with it.
    if (line.startsWith("stress-ng")
        && line.contains("--mmap ")
        && !line.contains("--mmap-bytes")) {
      line = line + " --mmap-bytes 8k";
    }
    int colon = line.indexOf(':');
    String tool = line.substring(0, colon);
    String args = line.substring(colon + 1).trim();
    String yaml =
        String.join(
            "\n",
            "duration: 10ms",
            "machine: {sockets: 1, cores_per_socket: 4, threads_per_core: 1}",
            "workload:",
            "  tools:",
            "    - " + tool + ": " + json(args),
            "");
    scenario(yaml, true, List.of());
  }

  // ---------------------------------------------------------------- --set lines

  private static final String[] SET_KEYS = {
    "duration",
    "seed",
    "name",
    "kernel.hz",
    "kernel.preempt",
    "kernel.params.cost.sched_base",
    "kernel.params.watchdog.timeout",
    "kernel.features.TTWU_QUEUE",
    "kernel.latency_limit",
    "machine.preset",
    "machine.sockets",
    "machine.isolated_cpus",
    "machine.idle_states",
    "workload.tasks[0].nice",
    "workload.tasks[0].count",
    "workload.tasks[0].program[0].user",
    "workload.tasks[9].nice",
    "workload.tasks",
    "workload.tasks[0]",
    "workload",
    "plugins",
    "plugins[0]",
    "plugins[0].id",
    "a.b.c",
    "kernel",
    "machine",
    "workload.tasks[0].program[1]",
    "x[0][1]",
    "[0]",
    "",
    ".",
    "kernel..hz",
    "workload.tasks[99999999999]"
  };

  @Provide
  Arbitrary<List<String>> setLines() {
    Arbitrary<String> line =
        Combinators.combine(
                Arbitraries.of(SET_KEYS),
                Arbitraries.of(TOKENS),
                Arbitraries.of("=", "", " = ", "=="))
            .as((k, v, eq) -> k + eq + v);
    return line.list().ofMinSize(1).ofMaxSize(3);
  }

  @Property(tries = 1000)
  void setLinesAreAcceptedOrRejectedWithTheirLine(
      @ForAll("setLines") List<String> sets, @ForAll int which) {
    scenario(yamlExamples.get(Math.floorMod(which, yamlExamples.size())), true, sets);
  }

  // ---------------------------------------------------------------- matrix files

  @Property(tries = 1000)
  void matrixFilesAreAcceptedOrRejectedWithALocatedError(@ForAll("edits") List<Edit> edits)
      throws IOException {
    Path f = matrixDir.resolve("ex/fuzz.yaml");
    Files.writeString(f, mutate(matrixExample, edits));
    try {
      MatrixSpec spec = MatrixFile.load(f);
      MatrixPlan.cells(spec, List.of(List.of(), List.of("sm-idle")));
    } catch (ScenarioException e) {
      // A bad field names its line; two cells with the same inputs are named by their indexes.
      assertThat(e.getMessage())
          .as("a rejection names where")
          .matches(
              Pattern.compile(
                      "^"
                          + Pattern.quote(f.toString())
                          + "(:\\d+(:\\d+)?: .+"
                          + "|: cells \\d+ \\(.*\\) and \\d+ \\(.*\\) have the same inputs.*)",
                      Pattern.DOTALL)
                  .asPredicate());
    }
  }

  // ---------------------------------------------------------------- plugin option lines

  @Provide
  Arbitrary<String> optionLines() {
    Arbitrary<String> part =
        Arbitraries.oneOf(
            Arbitraries.of(
                "sm-idle",
                "idle-spin",
                "a",
                "A",
                "a--b",
                "-a",
                "a-",
                "1",
                "",
                " ",
                ":",
                ";",
                "=",
                "k",
                "limit",
                "k=v",
                "=v",
                "k=",
                "k==v",
                "k=v=w",
                "predict=true",
                "é",
                "\t",
                "\u0000"),
            Arbitraries.strings().ofMaxLength(8));
    return part.list().ofMaxSize(6).map(l -> String.join("", l));
  }

  @Property(tries = 1000)
  void pluginOptionLinesAreAcceptedOrRejectedNamingTheLine(@ForAll("optionLines") String line) {
    try {
      PluginRef r = PluginRef.parse(line);
      assertThat(r.id()).matches("[a-z0-9]+(-[a-z0-9]+)*");
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).contains("'" + line + "'");
    }
  }
}
