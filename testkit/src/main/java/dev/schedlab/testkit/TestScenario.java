package dev.schedlab.testkit;

import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioException;
import dev.schedlab.lab.scenario.ScenarioLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A scenario for a test: YAML text (the scenario file format of docs/scenarios.md), a scenario
 * file, or one put together with {@link #builder()}. Immutable; {@link #set} returns a copy with
 * {@code --set}-style overrides.
 *
 * <pre>{@code
 * TestScenario pingPong = TestScenario.yaml("""
 *     duration: 20ms
 *     machine: {preset: small-x86}
 *     workload:
 *       tasks:
 *         - {name: producer, cpus: "0", program: [{user: 50us}, {wake: q}]}
 *         - {name: consumer, cpus: "3", program: [{block: q}, {user: 10us}, {mark: consumed}]}
 *     """);
 * }</pre>
 */
public final class TestScenario {
  private final @Nullable String yaml;
  private final @Nullable Path file;
  private final List<String> overrides;

  private TestScenario(@Nullable String yaml, @Nullable Path file, List<String> overrides) {
    this.yaml = yaml;
    this.file = file;
    this.overrides = List.copyOf(overrides);
  }

  /** A scenario from YAML text. */
  public static TestScenario yaml(String yaml) {
    return new TestScenario(Objects.requireNonNull(yaml, "yaml"), null, List.of());
  }

  /**
   * A scenario file (YAML, or rt-app JSON); relative paths inside it resolve against its folder.
   */
  public static TestScenario file(Path file) {
    return new TestScenario(null, Objects.requireNonNull(file, "file"), List.of());
  }

  /** A builder for a scenario in code. */
  public static TestScenarioBuilder builder() {
    return new TestScenarioBuilder();
  }

  /** A copy with overrides {@code key=value} applied, as {@code schedlab run --set}. */
  public TestScenario set(String... keyValues) {
    List<String> all = new ArrayList<>(overrides);
    all.addAll(List.of(keyValues));
    return new TestScenario(yaml, file, all);
  }

  /** The loaded scenario; a bad scenario is the test's own error (IllegalArgumentException). */
  Scenario load() {
    try {
      return file != null
          ? ScenarioLoader.load(file, overrides)
          : ScenarioLoader.parse(
              "test-scenario.yaml", Objects.requireNonNull(yaml), true, "test", overrides);
    } catch (ScenarioException e) {
      throw new IllegalArgumentException(
          "bad test scenario: " + e.getMessage() + (yaml != null ? "\n" + yaml : ""), e);
    }
  }

  @Override
  public String toString() {
    return (file != null ? file.toString() : yaml) + (overrides.isEmpty() ? "" : " " + overrides);
  }
}
