package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;

/**
 * The HTML report of each input kind (a run with its trace, a comparison, a reproduction, a
 * matrix), made by the CLI as users make it, opened from disk in headless Chromium with the network
 * closed: no console error, every chart drawn, the run's timeline with as many slices as its trace,
 * every number that names its JSON source equal to that value of the embedded JSON. Screenshots go
 * to target/report-screenshots.
 */
class ReportBrowserIT {
  static final String SCENARIO =
      String.join(
          "\n",
          "duration: 30ms",
          "machine: {preset: small-x86, sockets: 1, cores_per_socket: 2, threads_per_core: 1}",
          "workload:",
          "  tasks:",
          "    - {name: ticker, count: 2, program: [{sleep_until: {period: 3ms, sample: tick}}, {user: 200us}]}",
          "    - {name: pair, program: [{user: 100us}, {wake: q}, {sleep: 2ms}]}",
          "    - {name: peer, program: [{block: q}, {user: 50us}]}",
          "  tools:",
          "    - cyclictest: \"-i 1000 -t 2 -h 200 -q\"",
          "");
  static final String MATRIX =
      String.join(
          "\n",
          "name: browser",
          "set: [duration=20ms]",
          "workloads:",
          "  - {file: small.yaml, label: small}",
          "  - {tool: 'hackbench -g 1 -l 5', label: hackbench, duration: 20ms}",
          "params: ['-', {label: hz250, set: [kernel.hz=250]}]",
          "seeds: [1, 2]",
          "values: [metric.sched.context_switches]",
          "");

  /** Checks in the page: per pointer, the shown number against the embedded JSON's value. */
  static final String NUMBERS =
      String.join(
          "\n",
          "var bad = [], n = 0;",
          "function at(doc, ptr) {",
          "  return ptr.split('/').slice(1).reduce(function (v, t) {",
          "    return v === undefined || v === null ? undefined : v[t.replace(/~1/g, '/').replace(/~0/g, '~')];",
          "  }, doc);",
          "}",
          "document.querySelectorAll('section.input').forEach(function (s) {",
          "  var doc = JSON.parse(document.getElementById(s.id + '-json').textContent);",
          "  s.querySelectorAll('[data-ptr]').forEach(function (e) {",
          "    var v = at(doc, e.getAttribute('data-ptr')), t = e.textContent.trim();",
          "    n++;",
          "    var ok = typeof v === 'number' && (Number.isInteger(v) ? t === String(v)",
          "        : Math.abs(Number(t) - v) <= 5e-6 * Math.abs(v));",
          "    if (!ok) { bad.push(e.getAttribute('data-ptr') + ': page ' + t + ', JSON ' + v); }",
          "  });",
          "});",
          "return [n, bad];");

  /** Per chart: how many data marks it has and how many of them have an area or length. */
  static final String CHARTS =
      String.join(
          "\n",
          "return Array.prototype.map.call(document.querySelectorAll('figure.chart'), function (f) {",
          "  var marks = f.querySelectorAll('svg .mark'), drawn = 0;",
          "  marks.forEach(function (m) { var b = m.getBBox(); if (b.width > 0 || b.height > 0) { drawn++; } });",
          "  return f.getAttribute('data-chart') + ' ' + f.querySelector('figcaption').textContent + ': '",
          "      + drawn + '/' + marks.length;",
          "});");

  @TempDir static Path dir;
  static ChromeDriver browser;

  @BeforeAll
  static void start() throws Exception {
    Chromium.require();
    browser = Chromium.start(dir.resolve("profile"));
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.quit();
    }
  }

  @Test
  void aRunReportShowsEverySliceOfItsTrace() throws Exception {
    Path scenario = Files.writeString(dir.resolve("small.yaml"), SCENARIO);
    Path trace = dir.resolve("small.trace");
    Path json = dir.resolve("run.json");
    Path html = dir.resolve("run.html");
    Cli run =
        Cli.run(
            "run",
            scenario.toString(),
            "--out",
            json.toString(),
            "--trace",
            trace.toString(),
            "--report",
            html.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    Path again = dir.resolve("run-again.html");
    Cli report = Cli.run("report", json.toString(), trace.toString(), "--out", again.toString());
    assertThat(report.exitCode()).as(report.err()).isZero();
    assertThat(Files.readString(again)).isEqualTo(Files.readString(html));

    open(html, "run");
    List<String> lines = Files.readAllLines(trace);
    long switchIns =
        lines.stream()
            .filter(l -> l.contains(": sched_switch: ") && !l.contains("next_pid=0 "))
            .count();
    long idle =
        lines.stream()
            .filter(l -> l.contains(": cpu_idle: ") && !l.contains("state=4294967295"))
            .count();
    long irqs =
        lines.stream()
            .filter(l -> l.contains(": irq_handler_entry: ") || l.contains(": ipi_entry: "))
            .count();
    assertThat(switchIns).isPositive();
    assertThat(browser.findElements(By.cssSelector("figure[data-chart=timeline] .slice.task")))
        .hasSize((int) switchIns);
    assertThat(browser.findElements(By.cssSelector("figure[data-chart=timeline] .slice.idle")))
        .hasSize((int) idle);
    assertThat(browser.findElements(By.cssSelector("figure[data-chart=timeline] .slice.irq")))
        .hasSize((int) irqs);
    assertThat(charts())
        .anyMatch(c -> c.startsWith("histogram "))
        .anyMatch(c -> c.startsWith("percentiles "))
        .anyMatch(c -> c.startsWith("ipis "))
        .anyMatch(c -> c.startsWith("wakeups "));
  }

  @Test
  void aComparisonReport() throws Exception {
    Path scenario = Files.writeString(dir.resolve("cmp.yaml"), SCENARIO);
    Path html = dir.resolve("compare.html");
    Cli c =
        Cli.run(
            "compare",
            scenario.toString(),
            "--config",
            "hz250:kernel.hz=250",
            "--seeds",
            "2",
            "-q",
            "--report",
            html.toString());
    assertThat(c.exitCode()).as(c.err()).isZero();
    open(html, "compare");
    assertThat(charts())
        .anyMatch(s -> s.startsWith("differences "))
        .anyMatch(s -> s.startsWith("percentiles "));
  }

  @Test
  void aReproductionReport() throws Exception {
    Path html = dir.resolve("reproduce.html");
    Cli c =
        Cli.run(
            "reproduce",
            "sm-idle",
            "--dir",
            Cli.root().resolve("scenarios").toString(),
            "--seeds",
            "1",
            "--set",
            "duration=20ms",
            "-q",
            "--plugins-dir",
            Cli.pluginsDir().toString(),
            "--report",
            html.toString());
    assertThat(c.exitCode()).as(c.err()).isZero();
    open(html, "reproduce");
    assertThat(browser.findElements(By.cssSelector("figure[data-chart=reproduction] .mark.band")))
        .hasSize(2);
  }

  @Test
  void aMatrixReportSortsItsTable() throws Exception {
    Path m = Files.createDirectories(dir.resolve("matrix"));
    Files.writeString(m.resolve("small.yaml"), SCENARIO);
    Files.writeString(m.resolve("matrix.yaml"), MATRIX);
    Path html = dir.resolve("matrix.html");
    Cli c =
        Cli.run(
            "matrix",
            m.resolve("matrix.yaml").toString(),
            "--out",
            m.resolve("out").toString(),
            "-j",
            "2",
            "-q",
            "--report",
            html.toString());
    assertThat(c.exitCode()).as(c.err() + c.out()).isZero();
    open(html, "matrix");
    assertThat(browser.findElements(By.cssSelector("figure[data-chart=heatmap] .mark.hm")))
        .hasSize(4);
    WebElement events =
        browser.findElement(By.xpath("//table[contains(@class,'sortable')]//th[text()='events']"));
    events.click();
    events.click();
    List<Long> sorted =
        browser
            .findElements(By.xpath("//table[contains(@class,'sortable')]/tbody/tr/td[8]"))
            .stream()
            .map(e -> Long.parseLong(e.getText()))
            .toList();
    assertThat(sorted).hasSize(8).isSortedAccordingTo((a, b) -> Long.compare(b, a));

    Path other = dir.resolve("matrix-y.html");
    Cli r =
        Cli.run(
            "report",
            m.resolve("out").toString(),
            "--value",
            "metric.sched.wakeups",
            "--axes",
            "params,seed",
            "--out",
            other.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    open(other, "matrix-wakeups");
    assertThat(browser.findElements(By.cssSelector("figure[data-chart=heatmap]"))).hasSize(2);
  }

  /** Opens {@code html}, checks what every report must pass and keeps a screenshot. */
  private static void open(Path html, String name) throws Exception {
    browser.get(html.toUri().toString());
    JavascriptExecutor js = browser;
    assertThat(js.executeScript("return document.readyState")).isEqualTo("complete");
    List<LogEntry> errors =
        browser.manage().logs().get("browser").getAll().stream()
            .filter(e -> e.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue())
            .toList();
    assertThat(errors).as("console errors and warnings of %s", name).isEmpty();
    assertThat(js.executeScript("return performance.getEntriesByType('resource').length"))
        .as("resources fetched")
        .isEqualTo(0L);
    List<String> charts = charts();
    assertThat(charts).as("charts of %s", name).isNotEmpty();
    for (String c : charts) {
      String counts = c.substring(c.lastIndexOf(": ") + 2);
      assertThat(counts).as("drawn/total marks of %s", c).doesNotStartWith("0/");
    }
    @SuppressWarnings("unchecked")
    List<Object> numbers = (List<Object>) js.executeScript(NUMBERS);
    assertThat((Long) numbers.get(0)).as("numbers with a JSON source in %s", name).isPositive();
    assertThat((List<?>) numbers.get(1))
        .as("numbers that differ from the JSON in %s", name)
        .isEmpty();
    screenshot(name);
  }

  @SuppressWarnings("unchecked")
  private static List<String> charts() {
    return (List<String>) ((JavascriptExecutor) browser).executeScript(CHARTS);
  }

  private static void screenshot(String name) throws Exception {
    Object height =
        ((JavascriptExecutor) browser)
            .executeScript("return document.documentElement.scrollHeight");
    Dimension before = browser.manage().window().getSize();
    browser
        .manage()
        .window()
        .setSize(new Dimension(1200, (int) Math.min(12000, ((Number) height).longValue() + 140)));
    Path out = Path.of(System.getProperty("schedlab.it.screenshots", "target/report-screenshots"));
    Files.createDirectories(out);
    Files.write(out.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    browser.manage().window().setSize(before);
  }
}
