package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * tbench's start as dbench's create_procs() and tbench_srv's listener() do it: the parent forks the
 * clients one by one, tbench_srv forks a server per accepted connection, each client does its setup
 * exchange and stops, and the parent releases them in order.
 */
class TbenchStartTest {
  private static final int CLIENTS = 3;

  /** One trace event: its time, the CPU and task it ran in, the task it concerns. */
  private record Ev(String kind, long t, int cpu, String cur, String comm, int target) {}

  private static final class Recorder implements TraceSink {
    final List<Ev> events = new ArrayList<>();

    @Override
    public boolean enabled() {
      return true;
    }

    @Override
    public void schedWakeupNew(
        long t, int cpu, String curComm, int curPid, String comm, int pid, int prio, int target) {
      events.add(new Ev("new", t, cpu, curComm, comm, target));
    }

    @Override
    public void schedWaking(
        long t, int cpu, String curComm, int curPid, String comm, int pid, int prio, int target) {
      events.add(new Ev("waking", t, cpu, curComm, comm, target));
    }

    @Override
    public void schedSwitch(
        long t,
        int cpu,
        String prevComm,
        int prevPid,
        int prevPrio,
        char prevState,
        String nextComm,
        int nextPid,
        int nextPrio) {
      events.add(new Ev(prevState == 'S' ? "sleep" : "switch", t, cpu, prevComm, nextComm, -1));
    }
  }

  private static final Recorder TRACE = new Recorder();
  private static final Scenario SCENARIO;
  private static final RunResult RESULT;

  static {
    try {
      SCENARIO = ToolRunner.load(ToolRunner.tiny(8, "20ms", "tbench", String.valueOf(CLIENTS)));
      try (PluginHost host = PluginHost.builtinOnly()) {
        RESULT = Simulation.run(SCENARIO.config(), host.extensionsFor(List.of()), TRACE);
      }
    } catch (Exception e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> report() {
    return (Map<String, Object>)
        ((Map<String, Object>) Reports.json(SCENARIO.workload().tools(), RESULT).get("tbench"))
            .get("report");
  }

  private static long release() {
    return (Long) report().get("release_ns");
  }

  private static List<Ev> of(String kind, String comm) {
    return TRACE.events.stream().filter(e -> e.kind.equals(kind) && e.comm.equals(comm)).toList();
  }

  @Test
  void onlyTheParentAndTheListenerExistAtTheStart() {
    List<TaskSpec> tasks = SCENARIO.workload().tasks();
    assertThat(tasks)
        .extracting(TaskSpec::name)
        .containsExactly(
            "tbench/parent",
            "tbench/listener",
            "tbench/client0",
            "tbench/client1",
            "tbench/client2",
            "tbench/server0",
            "tbench/server1",
            "tbench/server2");
    assertThat(tasks.subList(0, 2)).allMatch(t -> t.count() == 1);
    assertThat(tasks.subList(2, tasks.size())).allMatch(t -> t.count() == 0); // fork templates
  }

  @Test
  void theParentForksTheClientsAndTheListenerAServerPerConnection() {
    long previous = -1;
    for (int i = 0; i < CLIENTS; i++) {
      String name = "tbench/client" + i;
      List<Ev> client = of("new", name);
      List<Ev> server = of("new", "tbench/server" + i);
      assertThat(client).hasSize(1);
      assertThat(server).hasSize(1);
      // wake_up_new_task() runs on the forking CPU, in the forking task
      assertThat(client.get(0).cur).isEqualTo("tbench/parent");
      assertThat(server.get(0).cur).isEqualTo("tbench/listener");
      assertThat(client.get(0).t).isGreaterThan(previous); // one after another
      previous = client.get(0).t;
      // the server exists only after its client connected and the listener accepted
      long connected =
          TRACE.events.stream()
              .filter(e -> e.comm.equals(name) && !e.kind.equals("new"))
              .mapToLong(Ev::t)
              .min()
              .orElseThrow();
      assertThat(server.get(0).t).isGreaterThan(connected);
    }
    // the listener sleeps in accept() until the first client's connect wakes it
    List<Ev> listenerWakes = of("waking", "tbench/listener");
    assertThat(listenerWakes).isNotEmpty();
    assertThat(listenerWakes.get(0).cur).isEqualTo("tbench/client0");
  }

  @Test
  void theParentReleasesEachStoppedClientOnceInOrder() {
    long release = release();
    assertThat(release).isPositive();
    long previous = -1;
    for (int i = 0; i < CLIENTS; i++) {
      String client = "tbench/client" + i;
      List<Ev> byParent =
          of("waking", client).stream().filter(e -> e.cur.equals("tbench/parent")).toList();
      assertThat(byParent).as(client + " released once").hasSize(1);
      long at = byParent.get(0).t;
      assertThat(at).isGreaterThan(previous).isLessThanOrEqualTo(release);
      previous = at;
    }
    // every client had stopped before the first release: none runs between its stop and release
    long firstRelease =
        of("waking", "tbench/client0").stream()
            .filter(e -> e.cur.equals("tbench/parent"))
            .findFirst()
            .orElseThrow()
            .t;
    for (int i = 0; i < CLIENTS; i++) {
      String client = "tbench/client" + i;
      long lastSleepBefore =
          TRACE.events.stream()
              .filter(e -> e.kind.equals("sleep") && e.cur.equals(client) && e.t < firstRelease)
              .mapToLong(Ev::t)
              .max()
              .orElseThrow();
      long runsBetween =
          TRACE.events.stream()
              .filter(
                  e ->
                      e.comm.equals(client)
                          && e.kind.equals("switch")
                          && e.t > lastSleepBefore
                          && e.t < firstRelease)
              .count();
      assertThat(runsBetween).as(client + " stays stopped until released").isZero();
    }
  }

  @Test
  void onlyExchangesAfterTheReleaseAndItsWarmupAreCounted() {
    Map<String, Object> rep = report();
    long release = release();
    long warmup = (Long) rep.get("warmup_ns");
    assertThat(warmup).isEqualTo(4_000_000L); // dbench: a fifth of -t (the 20 ms duration)
    // one setup exchange per client before the release: the server wakes its stopped-to-be
    // client at most once before the parent does
    for (int i = 0; i < CLIENTS; i++) {
      String server = "tbench/server" + i;
      long serverWakesBefore =
          of("waking", "tbench/client" + i).stream()
              .filter(e -> e.cur.equals(server) && e.t < release)
              .count();
      assertThat(serverWakesBefore).isLessThanOrEqualTo(1);
    }
    long exchanges = (Long) rep.get("exchanges");
    assertThat(exchanges).isPositive();
    double expected = exchanges * 4096.0 / 1e6 / ((RESULT.simNs() - release - warmup) / 1e9);
    assertThat((Double) rep.get("throughput_mb_s"))
        .isCloseTo(expected, org.assertj.core.api.Assertions.within(0.001));
    assertThat(Reports.text(SCENARIO.workload().tools(), RESULT))
        .containsPattern("(?m)^Throughput \\d+\\.\\d{3} MB/sec")
        .contains("MB/sec  3 clients  3 procs");
  }
}
