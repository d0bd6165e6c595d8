package dev.schedlab.lab.workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import org.jspecify.annotations.Nullable;

/** The workload tools found with {@link ServiceLoader}, by name. */
public final class Tools {
  private static volatile @Nullable List<WorkloadTool> cache;

  private Tools() {}

  /** Every tool, sorted by name. */
  public static List<WorkloadTool> all() {
    List<WorkloadTool> c = cache;
    if (c == null) {
      List<WorkloadTool> found = new ArrayList<>();
      ServiceLoader.load(WorkloadTool.class, Tools.class.getClassLoader()).forEach(found::add);
      found.sort(Comparator.comparing(WorkloadTool::name));
      cache = c = List.copyOf(found);
    }
    return c;
  }

  /** The tool called {@code name}. */
  public static Optional<WorkloadTool> find(String name) {
    return all().stream().filter(t -> t.name().equals(name)).findFirst();
  }

  /** The tool names, comma-separated (for messages). */
  public static String names() {
    return String.join(", ", all().stream().map(WorkloadTool::name).toList());
  }
}
