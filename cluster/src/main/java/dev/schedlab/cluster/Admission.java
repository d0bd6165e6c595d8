package dev.schedlab.cluster;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.SortedMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The coordinator's gate: a worker takes part only with the coordinator's schedlab version and
 * plugins (by hash); otherwise it is refused with a message saying why, printed on both sides.
 * Admitted members and how many cells each runs at once are what the {@link Dispatcher} hands cells
 * to.
 */
final class Admission {
  private final String version;
  private final PluginManifest manifest;
  private final @Nullable Path pluginsDir;
  private final Consumer<String> log;
  private final Map<UUID, Integer> admitted = new ConcurrentHashMap<>();
  private final Map<UUID, String> addresses = new ConcurrentHashMap<>();
  private volatile Runnable changed = () -> {};

  /**
   * A gate for workers of {@code version} with the plugins of {@code pluginsDir} ({@code
   * manifest}); {@code log} gets a line per admission and refusal.
   */
  Admission(
      String version, PluginManifest manifest, @Nullable Path pluginsDir, Consumer<String> log) {
    this.version = version;
    this.manifest = manifest;
    this.pluginsDir = pluginsDir;
    this.log = log;
  }

  /** Run after every admission or removal (wakes the dispatcher). */
  void onChange(Runnable r) {
    this.changed = r;
  }

  /** The plugins every member runs with. */
  PluginManifest manifest() {
    return manifest;
  }

  /** The answer to a worker's hello: a refusal when its version or shared plugins differ. */
  Calls.Welcome hello(Calls.HelloData h) {
    addresses.put(h.member(), h.address());
    String refusal = null;
    if (!version.equals(h.version())) {
      refusal =
          "schedlab "
              + h.version()
              + " on the worker but "
              + version
              + " on the coordinator;"
              + " run the same version on every member";
    } else if (h.shared() != null) {
      String diff = h.shared().differences(manifest);
      if (diff != null) {
        refusal =
            "its plugins differ from the coordinator's ("
                + diff
                + "); give every member the"
                + " same plugins directory, or leave out --plugins-dir to receive the coordinator's";
      }
    }
    if (refusal != null) {
      log.accept("refused worker " + h.address() + ": " + refusal);
    }
    return new Calls.Welcome(refusal, manifest);
  }

  /** The files of plugin entry {@code name}, checked against the manifest. */
  SortedMap<String, byte[]> pluginFiles(String name) throws IOException {
    String expected = manifest.hashes().get(name);
    if (expected == null || pluginsDir == null) {
      throw new IOException("the coordinator has no plugin " + name);
    }
    SortedMap<String, byte[]> files = PluginManifest.files(pluginsDir, name);
    if (!PluginManifest.hash(name, files).equals(expected)) {
      throw new IOException(
          "plugin " + name + " changed on the coordinator since the matrix started");
    }
    return files;
  }

  /**
   * A worker has its plugins in place and runs {@code jobs} cells at once: admitted when they are
   * the coordinator's, else refused (the answer says why).
   */
  @Nullable String ready(UUID member, int jobs, PluginManifest has) {
    String diff = has.differences(manifest);
    String address = addresses.getOrDefault(member, member.toString());
    if (diff != null) {
      String refusal =
          "its plugins differ from the coordinator's after the transfer (" + diff + ")";
      log.accept("refused worker " + address + ": " + refusal);
      return refusal;
    }
    admit(member, jobs);
    log.accept("worker " + address + " admitted, " + jobs + " job" + (jobs == 1 ? "" : "s"));
    return null;
  }

  /** Admits {@code member} (the coordinator itself, or a ready worker). */
  void admit(UUID member, int jobs) {
    if (jobs > 0) {
      admitted.put(member, jobs);
    }
    changed.run();
  }

  /** {@code member} left the cluster. */
  void remove(UUID member) {
    admitted.remove(member);
    changed.run();
  }

  /** The admitted members and how many cells each runs at once. */
  Map<UUID, Integer> admitted() {
    return Map.copyOf(admitted);
  }

  /** The address a worker gave, or its id. */
  String address(UUID member) {
    return addresses.getOrDefault(member, member.toString());
  }
}
