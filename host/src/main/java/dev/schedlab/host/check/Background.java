package dev.schedlab.host.check;

import dev.schedlab.host.Commands;
import dev.schedlab.host.HostException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** A load beside a workload: nothing, CPU hogs, or stress-ng's mmap workers, one per CPU. */
enum Background {
  QUIET(""),
  CPU_HOGS("--cpu 0"),
  MMAP_HOGS("--mmap 0");

  /** The stress-ng arguments the model's tool line takes, "" for none. */
  final String modelArgs;

  Background(String modelArgs) {
    this.modelArgs = modelArgs;
  }

  private List<String> argv() {
    return switch (this) {
      case QUIET -> List.of();
      case CPU_HOGS -> List.of("stress-ng", "--cpu", "0");
      case MMAP_HOGS -> List.of("stress-ng", "--mmap", "0");
    };
  }

  String label() {
    return switch (this) {
      case QUIET -> "quiet";
      case CPU_HOGS -> "beside stress-ng --cpu 0";
      case MMAP_HOGS -> "beside stress-ng --mmap 0";
    };
  }

  /** Starts it on the host (null when quiet), one second ahead so it has settled. */
  @Nullable Process start() throws HostException {
    if (this == QUIET) {
      return null;
    }
    Process p = Commands.background(argv());
    try {
      Thread.sleep(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      Commands.stop(p);
      throw new HostException("interrupted", e);
    }
    return p;
  }

  /** The model's tool entries for it, as the release of {@code env}'s stress-ng. */
  List<String[]> modelTools(Env env) {
    return this == QUIET ? List.of() : List.<String[]>of(env.stressNgTool(modelArgs));
  }
}
