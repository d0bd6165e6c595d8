package dev.schedlab.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * The container image of the integration tests, built once per test JVM FROM scratch: a jlink-made
 * runtime of the running JDK, the shared libraries it links against (found with ldd, copied to the
 * same paths), the CLI distribution ({@code cli/target}), every plugin zip and the scenarios. It is
 * named {@code schedlab-it:VERSION}; exactly that image is removed when the tests end.
 *
 * <p>Without a Docker engine the tests are skipped with a message, except under {@code CI=true},
 * where they fail (.ci/run installs and starts the engine).
 */
final class SchedlabImage implements BeforeAllCallback, BeforeEachCallback {
  static final String MODULES =
      "java.base,java.logging,java.management,java.naming,java.sql,java.xml,jdk.net,jdk.unsupported";
  static final String APP = "/opt/schedlab";
  private static volatile String name;

  /** The image name, once built. */
  static String name() {
    return name;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (!dockerAvailable()) {
      return; // each test is skipped (or fails under CI) in beforeEach, with the reason
    }
    context
        .getRoot()
        .getStore(ExtensionContext.Namespace.create(SchedlabImage.class))
        .getOrComputeIfAbsent("image", k -> build(), Built.class);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    ensureDocker();
  }

  private static boolean dockerAvailable() {
    return DockerClientFactory.instance().isDockerAvailable();
  }

  static void ensureDocker() {
    boolean available = dockerAvailable();
    if ("true".equals(System.getenv("CI"))) {
      if (!available) {
        throw new IllegalStateException(
            "CI=true but no Docker engine answers: .ci/run installs"
                + " docker.io and starts dockerd; see its log (/var/log/schedlab-dockerd.log)");
      }
      return;
    }
    assumeTrue(
        available,
        "container tests skipped: no Docker engine. To run them: apt-get install"
            + " docker.io, start dockerd (as .ci/run does) and check `docker info`; they run and must"
            + " pass under CI=true");
  }

  /** Removes the image when the test JVM's tests are done. */
  record Built(String image) implements AutoCloseable {
    @Override
    public void close() {
      try {
        DockerClientFactory.instance().client().removeImageCmd(image).withForce(true).exec();
      } catch (RuntimeException e) {
        System.err.println("could not remove image " + image + ": " + e);
      }
    }
  }

  private static Built build() {
    String image = "schedlab-it:" + System.getProperty("schedlab.it.version", "dev").toLowerCase();
    try {
      Path rootfs = rootfs();
      String jar =
          Files.list(rootfs.resolve(APP.substring(1)))
              .map(p -> p.getFileName().toString())
              .filter(n -> n.endsWith(".jar"))
              .findFirst()
              .orElseThrow();
      new ImageFromDockerfile(image, false)
          .withFileFromPath("rootfs", rootfs)
          .withDockerfileFromBuilder(
              b ->
                  b.from("scratch")
                      .copy("rootfs/", "/")
                      .workDir(APP)
                      .env("JAVA_HOME", "/opt/java")
                      .entryPoint(
                          "/opt/java/bin/java",
                          "-XX:+UseSerialGC",
                          "-Djava.io.tmpdir=/tmp",
                          "-Dschedlab.plugins.dir=" + APP + "/plugins",
                          "-jar",
                          APP + "/" + jar)
                      .build())
          .get(10, TimeUnit.MINUTES);
    } catch (Exception e) {
      throw new IllegalStateException("cannot build image " + image + ": " + e, e);
    }
    name = image;
    return new Built(image);
  }

  /** The image's file tree, under target/image/rootfs (the jlink runtime is kept between runs). */
  private static Path rootfs() throws IOException, InterruptedException {
    Path base = Path.of(System.getProperty("schedlab.it.image", "target/image"));
    Path jre = base.resolve("jre");
    if (!Files.isExecutable(jre.resolve("bin/java")) || !hasModules(jre)) {
      deleteTree(jre);
      Path jlink = Path.of(System.getProperty("java.home"), "bin", "jlink");
      exec(
          List.of(
              jlink.toString(),
              "--add-modules",
              MODULES,
              "--strip-debug",
              "--no-header-files",
              "--no-man-pages",
              "--output",
              jre.toString()));
    }
    Path root = base.resolve("rootfs");
    deleteTree(root);
    copyTree(jre, root.resolve("opt/java"));
    for (Path lib : sharedLibraries(jre)) {
      Path to = root.resolve(lib.toString().substring(1));
      Files.createDirectories(to.getParent());
      Files.copy(lib, to, StandardCopyOption.REPLACE_EXISTING);
    }
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        boolean exec =
            p.getParent().endsWith("bin")
                || p.toString().endsWith(".so")
                || p.toString().contains(".so.")
                || p.getFileName().toString().equals("jspawnhelper");
        Files.setPosixFilePermissions(
            p, PosixFilePermissions.fromString(exec ? "rwxr-xr-x" : "rw-r--r--"));
      }
    }
    Path app = root.resolve(APP.substring(1));
    Path cli = Path.of(System.getProperty("schedlab.it.cli", "../cli/target"));
    try (Stream<Path> s = Files.list(cli)) {
      for (Path j :
          s.filter(p -> p.getFileName().toString().matches("schedlab-cli-.*\\.jar"))
              .filter(p -> !p.toString().matches(".*-(sources|javadoc|tests)\\.jar"))
              .toList()) {
        copyTree(j, app.resolve(j.getFileName()));
      }
    }
    copyTree(cli.resolve("lib"), app.resolve("lib"));
    copyTree(Cli.pluginsDir(), app.resolve("plugins"));
    copyTree(Cli.root().resolve("scenarios"), app.resolve("scenarios"));
    Files.createDirectories(root.resolve("tmp"));
    Files.writeString(root.resolve("tmp/.keep"), "");
    // world-writable and sticky, as /tmp is everywhere: Docker gives a tmpfs mounted there the
    // mode of the image's directory, so a non-root user could not write to it otherwise
    Files.setAttribute(root.resolve("tmp"), "unix:mode", 01777);
    return root;
  }

  /** Whether the runtime kept from an earlier run has every module of {@link #MODULES}. */
  private static boolean hasModules(Path jre) throws IOException {
    Path release = jre.resolve("release");
    if (!Files.exists(release)) {
      return false;
    }
    String modules =
        Files.readAllLines(release).stream()
            .filter(l -> l.startsWith("MODULES="))
            .findFirst()
            .orElse("");
    for (String m : MODULES.split(",")) {
      if (!(" " + modules.replace("\"", " ") + " ").contains(" " + m + " ")) {
        return false;
      }
    }
    return true;
  }

  /** The libraries outside the runtime that ldd finds for its binaries and shared objects. */
  private static Set<Path> sharedLibraries(Path jre) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("ldd"));
    try (Stream<Path> s = Files.walk(jre)) {
      s.filter(Files::isRegularFile)
          .filter(p -> p.getParent().endsWith("bin") || p.getFileName().toString().endsWith(".so"))
          .forEach(p -> cmd.add(p.toString()));
    }
    Set<Path> libs = new TreeSet<>();
    for (String line : exec(cmd).split("\n")) {
      String t = line.trim();
      int arrow = t.indexOf("=> ");
      String path = arrow >= 0 ? t.substring(arrow + 3) : t;
      int paren = path.indexOf(" (");
      path = paren >= 0 ? path.substring(0, paren).trim() : path.trim();
      if (path.startsWith("/")
          && !path.startsWith(jre.toAbsolutePath().toString())
          && !path.contains("/" + jre.getFileName() + "/")) {
        libs.add(Path.of(path));
      }
    }
    return libs;
  }

  private static String exec(List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0 && !cmd.get(0).equals("ldd")) {
      throw new IOException(String.join(" ", cmd) + " failed:\n" + out);
    }
    return out;
  }

  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.createDirectories(t.getParent());
          Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted((a, b) -> b.getNameCount() - a.getNameCount())
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }
}
