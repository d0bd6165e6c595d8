package dev.schedlab.lab.rtapp;

import dev.schedlab.lab.workload.ToolParam;
import java.util.List;

/**
 * The costs rt-app's events are modelled with (docs/workloads.md, rt-app JSON). Overridable under
 * {@code workload: {rtapp: {file: F, params: {KEY: VALUE}}}}.
 */
public final class RtAppParams {
  private RtAppParams() {}

  public static final ToolParam NS_PER_LOOP =
      ToolParam.ns(
          "ns_per_loop",
          15,
          "[measured] rt-app 1.0 calibration (calibration: \"CPU0\") on the project's 2-vCPU machine: "
              + "pLoad = 15ns",
          "time of one waste_cpu_cycles() loop when global.calibration is a CPU "
              + "name (an integer calibration gives it directly)");
  public static final ToolParam MEMSET_BYTES_PER_US =
      ToolParam.num(
          "memset_bytes_per_us",
          10_000,
          "bytes/us",
          "[estimate] memset() of a buffer in cache/DRAM at ~10 GB/s on a current x86 core",
          "mem event: bytes written per microsecond");
  public static final ToolParam BYTE_ACCESS =
      ToolParam.num(
          "byte_access_ps",
          300,
          "ps",
          "[estimate] memrun read/write: one volatile byte load or store per cycle at ~3.3 GHz "
              + "(value in picoseconds)",
          "memrun read/write: time per byte, ps");
  public static final ToolParam DEVNULL_WRITE =
      ToolParam.ns(
          "devnull_write",
          300,
          "[estimate] write() to /dev/null: write_null() returns the count; vfs_write and fdget ~0.3 us",
          "iorun event: kernel time of one write() of up to mem_buffer_size bytes to /dev/null");
  public static final ToolParam HOP_L1 =
      ToolParam.num(
          "chase_hop_l1_ps",
          1_300,
          "ps",
          "[estimate] L1 load-to-use latency, 4-5 cycles",
          "memrun chase: time per hop when the chain fits in 32 KiB, ps");
  public static final ToolParam HOP_L2 =
      ToolParam.num(
          "chase_hop_l2_ps",
          4_000,
          "ps",
          "[estimate] L2 latency, ~14 cycles",
          "memrun chase: time per hop when the chain fits in 1 MiB, ps");
  public static final ToolParam HOP_LLC =
      ToolParam.num(
          "chase_hop_llc_ps",
          15_000,
          "ps",
          "[estimate] LLC latency, ~50 cycles",
          "memrun chase: time per hop when the chain fits in 32 MiB, ps");
  public static final ToolParam HOP_DRAM =
      ToolParam.num(
          "chase_hop_dram_ps",
          80_000,
          "ps",
          "[estimate] DRAM latency ~80 ns; a random chain defeats the prefetchers",
          "memrun chase: time per hop of a random chain larger than 32 MiB, ps");
  public static final ToolParam HOP_STREAM =
      ToolParam.num(
          "chase_hop_stream_ps",
          2_000,
          "ps",
          "[estimate] a sequential chain beyond L1 is prefetched: ~2 ns per hop",
          "memrun chase: time per hop of a sequential chain larger than 32 KiB, ps");
  public static final ToolParam FORK_COST =
      ToolParam.ns(
          "fork_cost",
          15_000,
          "[estimate] pthread_create(): mmap of the stack, clone(CLONE_VM|CLONE_THREAD), ~15 us",
          "fork event: kernel time of creating the thread");
  public static final ToolParam MAIN_SETUP =
      ToolParam.ns(
          "main_setup",
          1_800_000,
          "[measured] rt-app 1.0 on the project's 2-vCPU host running check-host's rt-app file: "
              + "sched_process_exec to its first task_newtask 1.82-2.14 ms over five runs at load "
              + "2-3 (ftrace), the lowest rounded down",
          "user time of rt-app's main thread before it creates the first thread: start-up, "
              + "parsing the file, opening the logs");
  public static final ToolParam THREAD_SETUP =
      ToolParam.ns(
          "thread_setup",
          20_000,
          "[estimate] thread_body() before the start barrier: the thread's name, its log file and "
              + "buffer; the host's traced rt-app threads run 15-30 us from their first switch-in "
              + "to the barrier (docs/validation.md, rt-app)",
          "user time of each thread's setup before the start barrier");

  /** Every parameter, in documentation order. */
  public static List<ToolParam> all() {
    return List.of(
        NS_PER_LOOP,
        MEMSET_BYTES_PER_US,
        BYTE_ACCESS,
        DEVNULL_WRITE,
        HOP_L1,
        HOP_L2,
        HOP_LLC,
        HOP_DRAM,
        HOP_STREAM,
        FORK_COST,
        MAIN_SETUP,
        THREAD_SETUP);
  }
}
