package dev.schedlab.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A Maven local repository of its own for a test that runs Maven: this build's schedlab artifacts
 * are installed into it (the files the reactor just built), and everything else comes from the
 * local repository of the build running the test, through a settings file whose only mirror is that
 * directory. No network is involved.
 */
final class LocalRepo {
  private final Path dir;
  private final Path settings;

  private LocalRepo(Path dir, Path settings) {
    this.dir = dir;
    this.settings = settings;
  }

  /**
   * A repository at {@code dir} holding {@code artifacts} (entries {@code
   * groupId:artifactId:type=file} at version {@code version}) and reading the rest from {@code
   * outer}.
   */
  static LocalRepo create(Path dir, Path outer, String artifacts, String version)
      throws IOException {
    for (String entry : artifacts.split(",")) {
      String e = entry.strip();
      if (e.isEmpty()) {
        continue;
      }
      String[] kv = e.split("=", 2);
      String[] gat = kv[0].split(":");
      Path file = Path.of(kv[1].strip());
      if (!Files.isRegularFile(file)) {
        throw new IOException("artifact " + kv[0] + " not built: " + file);
      }
      Path target =
          dir.resolve(gat[0].replace('.', '/'))
              .resolve(gat[1])
              .resolve(version)
              .resolve(gat[1] + "-" + version + "." + gat[2]);
      Files.createDirectories(target.getParent());
      Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
    }
    Path settings = dir.resolve("settings.xml");
    Files.writeString(
        settings,
        String.join(
            "\n",
            "<settings>",
            "  <mirrors>",
            "    <mirror>",
            "      <id>build-local-repository</id>",
            "      <mirrorOf>*</mirrorOf>",
            "      <url>" + outer.toUri() + "</url>",
            "    </mirror>",
            "  </mirrors>",
            "</settings>",
            ""));
    return new LocalRepo(dir, settings);
  }

  /** The options that make a Maven run use this repository, offline but for the mirror. */
  String[] mavenOptions() {
    return new String[] {
      "-B",
      "-ntp",
      "-o",
      "-Daether.offline.protocols=file",
      "-s",
      settings.toString(),
      "-Dmaven.repo.local=" + dir
    };
  }
}
