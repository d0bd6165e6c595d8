package dev.schedlab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedlab.report.section.CompareSection;
import dev.schedlab.report.section.MatrixSection;
import dev.schedlab.report.section.ReproduceSection;
import dev.schedlab.report.section.RunSection;
import dev.schedlab.report.timeline.FtraceReader;
import dev.schedlab.report.timeline.Timeline;
import dev.schedlab.report.timeline.TraceFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads the inputs of {@code schedlab report} and makes their sections. An input is a run's JSON
 * ({@code run --format json} or {@code --out}), an ftrace text trace (it belongs to the run JSON
 * just before it), a {@code compare} JSON, a {@code reproduce} JSON (one object per experiment) or
 * a matrix output directory (or its summary.json). The kind is read from the content.
 */
public final class ReportInputs {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ReportInputs() {}

  /** The sections of {@code inputs}, in order. */
  public static List<Section> read(List<Path> inputs, MatrixView view)
      throws ReportInputException, IOException {
    List<Section> out = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      Path p = inputs.get(i);
      if (Files.isDirectory(p)) {
        out.add(MatrixSection.read(p, view));
        continue;
      }
      if (!Files.isRegularFile(p)) {
        throw new ReportInputException(p + ": no such file or directory");
      }
      if (FtraceReader.looksLikeFtrace(p)) {
        throw new ReportInputException(
            p
                + ": a trace must follow the run JSON it belongs to"
                + " (schedlab report RUN.json TRACE ...)");
      }
      String text = Files.readString(p, StandardCharsets.UTF_8);
      List<JsonNode> docs = parse(p, text);
      JsonNode first = docs.get(0);
      if (first.has("experiment") && first.has("rows")) {
        for (int k = 1; k < docs.size(); k++) {
          if (!docs.get(k).has("experiment") || !docs.get(k).has("rows")) {
            throw new ReportInputException(
                p
                    + ": JSON object "
                    + (k + 1)
                    + " is not an experiment (experiment, rows) like the first");
          }
        }
        out.add(ReproduceSection.of(docs, reproduceJson(docs)));
      } else if (first.has("baseline") && first.has("configurations") && first.has("metrics")) {
        out.add(CompareSection.of(single(p, docs, "compare"), text));
      } else if (first.has("digest") && first.has("metrics") && first.has("sim_ns")) {
        Path trace =
            i + 1 < inputs.size()
                    && Files.isRegularFile(inputs.get(i + 1))
                    && FtraceReader.looksLikeFtrace(inputs.get(i + 1))
                ? inputs.get(++i)
                : null;
        JsonNode run = single(p, docs, "run");
        out.add(RunSection.of(run, text, trace == null ? null : timeline(trace, run)));
      } else if (first.has("matrix") && first.has("cells")) {
        Path dir = Objects.requireNonNull(p.toAbsolutePath().getParent()); // a file has a parent
        out.add(MatrixSection.read(dir, view));
      } else {
        throw new ReportInputException(
            p
                + ": not a schedlab result: expected the JSON of run"
                + " (digest, metrics, sim_ns), compare (baseline, configurations, metrics), reproduce"
                + " (experiment, rows) or a matrix summary.json (matrix, cells)");
      }
    }
    if (out.isEmpty()) {
      throw new ReportInputException(
          "no input: give a run JSON (and its trace), a compare or"
              + " reproduce JSON, or a matrix output directory");
    }
    return out;
  }

  /** The timeline of {@code trace}, checked against the run it belongs to. */
  public static Timeline timeline(Path trace, JsonNode run)
      throws ReportInputException, IOException {
    int cpus = run.path("metrics").path("per_cpu").size();
    var header = FtraceReader.cpus(trace);
    if (cpus > 0 && header.isPresent() && header.getAsInt() != cpus) {
      throw new ReportInputException(
          trace
              + ": the trace has "
              + header.getAsInt()
              + " CPUs (#P:) but the run before it has "
              + cpus
              + ": not the same run");
    }
    Timeline t = new Timeline(header.orElse(Math.max(1, cpus)), run.path("sim_ns").asLong());
    try {
      FtraceReader.read(trace, t);
    } catch (TraceFormatException e) {
      throw new ReportInputException(Objects.requireNonNull(e.getMessage()));
    }
    return t.finish(run.path("sim_ns").asLong());
  }

  private static List<JsonNode> parse(Path p, String text) throws ReportInputException {
    List<JsonNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it = JSON.readerFor(JsonNode.class).readValues(text)) {
      while (it.hasNextValue()) {
        JsonNode n = it.nextValue();
        if (!n.isObject()) {
          throw new ReportInputException(p + ": expected a JSON object, got " + n.getNodeType());
        }
        docs.add(n);
      }
    } catch (JsonProcessingException e) {
      var loc = e.getLocation();
      throw new ReportInputException(
          p
              + (loc == null ? "" : ":" + loc.getLineNr() + ":" + loc.getColumnNr())
              + ": not valid JSON: "
              + e.getOriginalMessage());
    } catch (IOException e) {
      throw new ReportInputException(p + ": cannot read: " + e.getMessage());
    }
    if (docs.isEmpty()) {
      throw new ReportInputException(p + ": empty file: expected a schedlab result JSON");
    }
    return docs;
  }

  private static JsonNode single(Path p, List<JsonNode> docs, String kind)
      throws ReportInputException {
    if (docs.size() != 1) {
      throw new ReportInputException(
          p + ": expected one " + kind + " JSON object, found " + docs.size());
    }
    return docs.get(0);
  }

  /** The experiments of a reproduce output, embedded as one JSON array. */
  public static String reproduceJson(List<JsonNode> experiments) {
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(experiments) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
