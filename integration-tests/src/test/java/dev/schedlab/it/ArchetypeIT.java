package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What docs/authoring.md promises a plugin author, offline: {@code mvn archetype:generate} for each
 * variant, {@code mvn verify} of the generated projects (their own test-kit tests pass, each leaves
 * a plugin zip), and the zips listed by {@code schedlab plugins}, enabled by {@code schedlab run
 * --plugin} and compared by {@code schedlab matrix}. Maven runs with a local repository of its own
 * holding this build's artifacts (LocalRepo).
 */
class ArchetypeIT {
  private static final List<String> VARIANTS =
      List.of("idle-policy", "scheduling-class", "hook-override");

  @TempDir static Path work;
  private static Path projects;

  @BeforeAll
  static void generateAndBuild() throws Exception {
    String version = System.getProperty("schedlab.it.version");
    LocalRepo repo =
        LocalRepo.create(
            work.resolve("repo"),
            Path.of(System.getProperty("schedlab.it.outerRepo")),
            System.getProperty("schedlab.it.artifacts"),
            version);
    projects = Files.createDirectories(work.resolve("projects"));
    List<String> modules = new ArrayList<>();
    for (String variant : VARIANTS) {
      String id = "my-" + variant;
      maven(
          projects,
          repo,
          "org.apache.maven.plugins:maven-archetype-plugin:"
              + System.getProperty("schedlab.it.archetypeVersion")
              + ":generate",
          "-DarchetypeGroupId=dev.schedlab",
          "-DarchetypeArtifactId=schedlab-plugin-archetype",
          "-DarchetypeVersion=" + version,
          "-DarchetypeCatalog=local",
          "-DgroupId=org.example",
          "-DartifactId=" + id,
          "-Dpackage=org.example.sched",
          "-Dvariant=" + variant,
          "-DinteractiveMode=false");
      modules.add("    <module>" + id + "</module>");
    }
    // One Maven run builds all three (each is a standalone project; this pom only lists them).
    Files.writeString(
        projects.resolve("pom.xml"),
        String.join(
            "\n",
            "<project><modelVersion>4.0.0</modelVersion>",
            "  <groupId>org.example</groupId><artifactId>all</artifactId><version>1</version>",
            "  <packaging>pom</packaging>",
            "  <modules>",
            String.join("\n", modules),
            "  </modules>",
            "</project>",
            ""));
    maven(projects, repo, "verify");
  }

  private static void maven(Path dir, LocalRepo repo, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(System.getProperty("schedlab.it.maven", "mvn"));
    cmd.addAll(List.of(repo.mavenOptions()));
    cmd.addAll(List.of(args));
    Path log = Files.createTempFile(work, "maven-", ".log");
    Process p =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("Maven did not finish: " + cmd);
    }
    String out = Files.readString(log);
    assertThat(p.exitValue()).as("%s%n%s", cmd, out).isZero();
  }

  private static Path zipsOf(String variant) {
    return projects.resolve("my-" + variant).resolve("target/plugins");
  }

  @Test
  void eachVariantGeneratesItsOwnContributionAndATestThatRan() throws IOException {
    for (String variant : VARIANTS) {
      Path project = projects.resolve("my-" + variant);
      List<String> sources;
      try (Stream<Path> s = Files.walk(project.resolve("src/main/java"))) {
        sources =
            s.filter(Files::isRegularFile).map(f -> f.getFileName().toString()).sorted().toList();
      }
      String kept =
          Map.of(
                  "idle-policy",
                  "MyIdlePolicy.java",
                  "scheduling-class",
                  "MySchedulingClass.java",
                  "hook-override",
                  "MyHook.java")
              .get(variant);
      assertThat(sources).as(variant).containsExactlyInAnyOrder(kept, "MyPlugin.java");
      Path report =
          project.resolve("target/surefire-reports/TEST-org.example.sched.MyPluginTest.xml");
      assertThat(Files.readString(report))
          .as(variant)
          .contains("failures=\"0\"")
          .doesNotContain("tests=\"0\"");
    }
  }

  @Test
  void schedlabPluginsListsEachZipWithTheMetadataPf4jEnforces() throws IOException {
    for (String variant : VARIANTS) {
      try (Stream<Path> s = Files.list(zipsOf(variant))) {
        assertThat(s.map(z -> z.getFileName().toString()).toList())
            .containsExactly("my-" + variant + "-1.0-SNAPSHOT-plugin.zip");
      }
      Cli cli = Cli.run("plugins", "--plugins-dir", zipsOf(variant).toString());
      assertThat(cli.exitCode()).as(cli.err()).isZero();
      assertThat(cli.out())
          .containsPattern("my-" + variant + " 1\\.0-SNAPSHOT .*\\[loaded]")
          .contains("requires:  >=" + dev.schedlab.api.ApiVersion.CURRENT + " & <");
    }
  }

  @Test
  void schedlabRunEnablesEachPlugin() throws Exception {
    for (String variant : VARIANTS) {
      Path scenario = projects.resolve("my-" + variant).resolve("scenario.yaml");
      Cli with =
          Cli.run(
              "run",
              scenario.toString(),
              "--format",
              "json",
              "--plugins-dir",
              zipsOf(variant).toString(),
              "--plugin",
              "my-" + variant);
      assertThat(with.exitCode()).as(variant + ": " + with.err()).isZero();
      JsonNode r = new ObjectMapper().readTree(with.out());
      assertThat(r.path("plugins").toString()).contains("my-" + variant);
      assertThat(r.path("events").asLong()).isPositive();
    }
  }

  @Test
  void schedlabMatrixRunsTheGeneratedMatrix(@TempDir Path out) throws Exception {
    String variant = "scheduling-class";
    Path matrix = projects.resolve("my-" + variant).resolve("matrix.yaml");
    Cli cli =
        Cli.run(
            "matrix",
            matrix.toString(),
            "--plugins-dir",
            zipsOf(variant).toString(),
            "--out",
            out.toString(),
            "-j",
            "1");
    assertThat(cli.exitCode()).as(cli.err()).isZero();
    List<String> cells = Files.readAllLines(out.resolve("cells.jsonl"));
    assertThat(cells).hasSize(8);
    assertThat(cells.stream().filter(c -> c.contains("\"status\":\"ok\"")).count()).isEqualTo(8);
    assertThat(cells.stream().filter(c -> c.contains("\"plugins\":\"my-" + variant + "\"")).count())
        .isEqualTo(4);
  }
}
