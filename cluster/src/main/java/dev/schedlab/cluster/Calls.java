package dev.schedlab.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import dev.schedlab.lab.matrix.CellResult;
import java.io.Serializable;
import java.util.Objects;
import java.util.SortedMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;

/**
 * The calls members make to each other through Hazelcast's executor service. A worker, once joined,
 * says {@link Hello} to the coordinator (version and plugins checked), fetches the coordinator's
 * plugins ({@link FetchPlugin}) unless it has a shared directory, and reports {@link Ready}; the
 * coordinator then sends it cells ({@link RunCell}) and, when the matrix is complete, {@link
 * Finish}. Class names and fields are the wire format between members of one version; {@link Hello}
 * and {@link Welcome} must stay readable across versions so that a member of another version gets
 * the refusal.
 */
final class Calls {
  private Calls() {}

  /** A call that acts on the receiving member's {@link MemberRuntime}. */
  abstract static class Call<T> implements Callable<T>, Serializable, HazelcastInstanceAware {
    private static final long serialVersionUID = 1L;
    private transient @Nullable HazelcastInstance hz;

    @Override
    public void setHazelcastInstance(HazelcastInstance instance) {
      this.hz = instance;
    }

    MemberRuntime runtime() {
      return MemberRuntime.of(Objects.requireNonNull(hz)); // set by Hazelcast before call()
    }
  }

  /** Coordinator to member: run one cell, answer its result. */
  static final class RunCell extends Call<CellResult> {
    private static final long serialVersionUID = 1L;
    private final CellSpec spec;

    RunCell(CellSpec spec) {
      this.spec = spec;
    }

    @Override
    public CellResult call() throws Exception {
      return runtime().run(spec);
    }
  }

  /**
   * Worker to coordinator, first call after joining.
   *
   * @param member the worker's member id
   * @param address the worker's address, for messages
   * @param version the worker's schedlab version
   * @param shared the worker's plugins when it reads them from a shared directory, or null when it
   *     takes the coordinator's
   */
  record HelloData(UUID member, String address, String version, @Nullable PluginManifest shared)
      implements Serializable {}

  /** See {@link HelloData}. */
  static final class Hello extends Call<Welcome> {
    private static final long serialVersionUID = 1L;
    private final HelloData data;

    Hello(HelloData data) {
      this.data = data;
    }

    @Override
    public Welcome call() {
      return runtime().admission().hello(data);
    }
  }

  /**
   * The coordinator's answer to {@link Hello}.
   *
   * @param refusal why the worker may not take part, or null
   * @param manifest the coordinator's plugins
   */
  record Welcome(@Nullable String refusal, PluginManifest manifest) implements Serializable {}

  /** Worker to coordinator: the files of one plugin entry, by path. */
  static final class FetchPlugin extends Call<SortedMap<String, byte[]>> {
    private static final long serialVersionUID = 1L;
    private final String name;

    FetchPlugin(String name) {
      this.name = name;
    }

    @Override
    public SortedMap<String, byte[]> call() throws Exception {
      return runtime().admission().pluginFiles(name);
    }
  }

  /** Worker to coordinator: plugins in place, send cells; answers a refusal or null. */
  static final class Ready extends Call<String> {
    private static final long serialVersionUID = 1L;
    private final UUID member;
    private final int jobs;
    private final PluginManifest has;

    Ready(UUID member, int jobs, PluginManifest has) {
      this.member = member;
      this.jobs = jobs;
      this.has = has;
    }

    @Override
    public @Nullable String call() {
      return runtime().admission().ready(member, jobs, has);
    }
  }

  /** Coordinator to worker: the matrix is complete. */
  static final class Finish extends Call<Boolean> {
    private static final long serialVersionUID = 1L;

    @Override
    public Boolean call() {
      runtime().finish();
      return Boolean.TRUE;
    }
  }
}
