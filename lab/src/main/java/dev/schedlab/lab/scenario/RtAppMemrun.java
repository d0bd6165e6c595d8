package dev.schedlab.lab.scenario;

import dev.schedlab.lab.rtapp.RtAppParams;
import dev.schedlab.lab.workload.ToolParam;
import java.util.function.ToLongFunction;

/**
 * rt-app's {@code memrun} event as compute time: {@code read} and {@code write} touch {@code count}
 * bytes one at a time; {@code chase} follows {@code count} pointers through a chain of {@code size
 * / stride} links (rounded down to a power of two, as rt-app builds it), at a per-hop latency set
 * by the cache level the chain fits in (sequential chains larger than L1 stream from the
 * prefetchers). The cache sizes are those of the parameters' names: 32 KiB L1, 1 MiB L2, 32 MiB
 * LLC.
 */
final class RtAppMemrun {
  private static final long L1 = 32 * 1024;
  private static final long L2 = 1024 * 1024;
  private static final long LLC = 32 * 1024 * 1024;

  private RtAppMemrun() {}

  static long ns(RtAppEvents.Event e, ToLongFunction<ToolParam> params) throws ScenarioException {
    if (!e.value().node().isObject()) {
      throw RtAppEvents.mismatch(e, "an object {type, size, count}");
    }
    Obj o = e.value().object();
    String type = o.required("type").text();
    long size = o.required("size").integer(0, Integer.MAX_VALUE);
    long count = o.required("count").integer(0, Integer.MAX_VALUE);
    switch (type) {
      case "read", "write" -> {
        return count * params.applyAsLong(RtAppParams.BYTE_ACCESS) / 1000;
      }
      case "chase" -> {
        long stride = o.has("stride") ? o.get("stride").integer(1, Integer.MAX_VALUE) : 64;
        boolean random = !"sequential".equals(o.text("pattern", "random"));
        long links = Long.highestOneBit(Math.max(1, size / stride));
        if (links < 2) {
          return 0; // rt-app: "mem_chase buffer too small", the event then does nothing
        }
        long bytes = links * stride;
        ToolParam hop =
            bytes <= L1
                ? RtAppParams.HOP_L1
                : !random
                    ? RtAppParams.HOP_STREAM
                    : bytes <= L2
                        ? RtAppParams.HOP_L2
                        : bytes <= LLC ? RtAppParams.HOP_LLC : RtAppParams.HOP_DRAM;
        return count * params.applyAsLong(hop) / 1000;
      }
      default -> {
        throw o.get("type")
            .error(
                "unknown memrun type "
                    + type
                    + "; expected read, write or chase"
                    + " (rt-app: Unknown memrun type)");
      }
    }
  }
}
