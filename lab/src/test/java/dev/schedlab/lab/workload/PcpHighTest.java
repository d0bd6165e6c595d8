package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.MachineSpec;
import dev.schedlab.engine.config.NoiseSpec;
import dev.schedlab.engine.output.RunResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The pcp high bounds follow zone_highsize() over the watermarks of __setup_per_zone_wmarks(), and
 * the mmap model's pcp list uses them with the auto-tuning.
 */
class PcpHighTest {
  /** One socket, 32 cores x SMT2, one node: the experiment's 64-CPU machine. */
  static final MachineSpec MACHINE_64 =
      new MachineSpec(
          "test",
          1,
          32,
          2,
          32,
          1,
          "poll-only",
          List.of(),
          "menu",
          false,
          "",
          List.of(),
          List.of(),
          NoiseSpec.NONE);

  @Test
  void highMinIsTheLowWatermarkOverTheNodesCpusAndHighMaxAnEighthOfTheZone() {
    // 64 CPUs x 4 GiB, one node: 16 Mi pages; min_free_kbytes = sqrt(256 GiB in kB * 16) =
    // 65536 kB = 16384 pages, all of it this zone's; low = 16384 + max(4096, 16Mi * 10 / 10000)
    PcpHigh h = PcpHigh.of(64, 1, 4096, 10, 63);
    long managed = 64L * 4096 * 256;
    long low = 16_384 + managed * 10 / 10_000;
    assertThat(h.highMin()).isEqualTo((int) (low / 64));
    assertThat(h.highMax()).isEqualTo((int) (managed / 8 / 64));
  }

  @Test
  void twoNodesSplitTheirOwnZoneOverTheirOwnCpus() {
    PcpHigh one = PcpHigh.of(64, 1, 4096, 10, 63);
    PcpHigh two = PcpHigh.of(128, 2, 4096, 10, 63);
    assertThat(two.highMax()).isEqualTo(one.highMax()); // same memory per CPU
    // min_free_kbytes grows as the square root of all memory and is split by zone size
    assertThat(two.highMin()).isLessThan(one.highMin());
  }

  @Test
  void aSmallMachineKeepsFourBatches() {
    // 64 CPUs with 64 MiB each: the low watermark's share is under 4 x 63 pages
    PcpHigh h = PcpHigh.of(64, 1, 64, 10, 63);
    assertThat(h.highMin()).isEqualTo(252);
    assertThat(PcpHigh.of(64, 1, 1, 10, 63).highMax()).isEqualTo(252);
  }

  @Test
  void theMmapModelsPcpListTakesTheMachinesBounds() {
    ToolContext ctx = new ToolContext("stress-ng", MACHINE_64, 0, Map.of());
    assertThat(new MmapPaths(ctx).pcpHigh()).isEqualTo(PcpHigh.of(64, 1, 4096, 10, 63));
    ToolContext small =
        new ToolContext("stress-ng", MACHINE_64, 0, Map.of("mem_per_cpu", 64L, "pcp_batch", 31L));
    assertThat(new MmapPaths(small).pcpHigh()).isEqualTo(PcpHigh.of(64, 1, 64, 10, 31));
  }

  /** The zone->lock rows of a 2-CPU stress-ng V0.17.04 --mmap run of 1024 pages per worker. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> zoneLock(String duration, long memPerCpuMib) throws Exception {
    String yaml =
        String.join(
            "\n",
            "duration: " + duration,
            "machine: {sockets: 1, cores_per_socket: 2, threads_per_core: 1, idle_states:"
                + " poll-only}",
            "workload:",
            "  tools:",
            "    - stress-ng: {args: \"--mmap 0 --mmap-bytes 8m\", params: {version: 1704,"
                + " mem_per_cpu: "
                + memPerCpuMib
                + "}}",
            "");
    RunResult r = ToolRunner.run(ToolRunner.load(yaml));
    return (Map<String, Object>)
        ((Map<String, Object>) r.metrics().get("lock_stat")).get("zone->lock");
  }

  /**
   * With 64 MiB per CPU high_min is 4 batches (252 pages), less than a worker's 1024: only the
   * auto-tuning lets the list keep them. Each worker's first populate refills 63, 126, 252, 504 and
   * 1008 pages (raising high by as much), after which the attempts' frees and allocations stay on
   * the list: a longer run (well inside the first vmstat decay) takes zone->lock no more often.
   */
  @Test
  void afterItsFirstPopulateAWorkerTakesNoZoneLock() throws Exception {
    Map<String, Object> shortRun = zoneLock("60ms", 64);
    Map<String, Object> longRun = zoneLock("240ms", 64);
    assertThat(longRun.get("acquisitions")).isEqualTo(2L * 5);
    assertThat(shortRun.get("acquisitions")).isEqualTo(longRun.get("acquisitions"));
    long perPage = MmapCosts.ZONE_PER_PAGE.defaultValue();
    // the longest hold is the 1008-page refill (zone_per_page drawn within +-50 %)
    assertThat((Long) longRun.get("holdtime-max"))
        .isBetween(1008 * perPage / 2, 1008 * perPage * 3 / 2);
  }
}
