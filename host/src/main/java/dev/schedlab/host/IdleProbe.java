package dev.schedlab.host;

import dev.schedlab.engine.config.IdleStateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The cpuidle driver, its states and the governor, from /sys/devices/system/cpu/cpuidle and
 * /sys/devices/system/cpu/cpuN/cpuidle/stateK. Without a driver ({@code current_driver} missing or
 * {@code none}) {@code cpuidle_idle_call()} uses {@code default_idle_call()}: the table is empty
 * and the machine file says {@code hlt-only}.
 */
final class IdleProbe {
  private static final String IDLE = "/sys/devices/system/cpu/cpuidle";

  record Result(
      Sourced<List<IdleStateSpec>> states,
      Sourced<List<String>> disabled,
      Sourced<String> governor,
      String driver) {}

  private IdleProbe() {}

  static Result probe(HostFiles f, int cpu) {
    String driver = f.text(IDLE + "/current_driver").orElse("none");
    String dir = "/sys/devices/system/cpu/cpu" + cpu + "/cpuidle";
    List<String> stateDirs = f.list(dir, "state\\d+");
    if (driver.equals("none") || stateDirs.isEmpty()) {
      String why =
          f.text(IDLE + "/current_driver").isPresent()
              ? IDLE + "/current_driver: " + driver + ": default_idle_call() halts"
              : IDLE + "/current_driver absent (no cpuidle driver): default_idle_call() halts";
      return new Result(
          Sourced.of(List.of(), why),
          Sourced.of(List.of(), why),
          Sourced.of("menu", "no cpuidle driver: no governor runs (menu is named, unused)"),
          "none");
    }
    List<IdleStateSpec> states = new ArrayList<>();
    List<String> disabled = new ArrayList<>();
    StringBuilder descs = new StringBuilder();
    for (String s : stateDirs) {
      String p = dir + "/" + s + "/";
      String sysName = f.text(p + "name").orElse(s);
      String desc = f.text(p + "desc").orElse("");
      String name = sysName.replaceAll("\\s+", "_");
      long latencyUs = f.number(p + "latency").orElse(0L);
      long residencyUs = f.number(p + "residency").orElse(0L);
      boolean polling = sysName.equals("POLL") || desc.toUpperCase(Locale.ROOT).contains("MWAIT");
      states.add(new IdleStateSpec(name, latencyUs * 1_000, residencyUs * 1_000, polling, false));
      if (f.number(p + "disable").orElse(0L) != 0) {
        disabled.add(name);
      }
      descs.append(descs.length() == 0 ? "" : "; ").append(name).append(": ").append(desc);
    }
    String gov =
        f.text(IDLE + "/current_governor")
            .or(() -> f.text(IDLE + "/current_governor_ro"))
            .orElse("");
    Sourced<String> governor =
        switch (gov) {
          case "menu", "haltpoll" -> Sourced.of(gov, IDLE + "/current_governor");
          case "" -> Sourced.fallback("menu", IDLE + "/current_governor unreadable");
          default ->
              Sourced.of(
                  "menu",
                  IDLE + "/current_governor: " + gov + " is not modelled; menu stands in for it");
        };
    return new Result(
        Sourced.of(
            states,
            "driver " + driver + " (" + IDLE + "/current_driver), " + dir + "/stateK: " + descs),
        Sourced.of(disabled, dir + "/stateK/disable"),
        governor,
        driver);
  }
}
