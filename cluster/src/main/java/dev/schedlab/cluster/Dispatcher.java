package dev.schedlab.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.core.IExecutorService;
import com.hazelcast.core.MemberLeftException;
import com.hazelcast.spi.exception.TargetNotMemberException;
import dev.schedlab.lab.matrix.Cell;
import dev.schedlab.lab.matrix.CellExecutor;
import dev.schedlab.lab.matrix.CellResult;
import dev.schedlab.lab.matrix.Workload;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Hands the cells to the admitted members, each up to the number of cells it runs at once, and
 * collects the results in the calling thread. A cell whose member leaves the cluster before it
 * answers (killed, cut off, shut down) goes back to the front of the queue and runs on another
 * member; a cell whose call fails otherwise is tried {@value #ATTEMPTS} times and then recorded as
 * failed. Every cell is handed to {@code results} exactly once.
 */
final class Dispatcher {
  /** Tries of a cell whose call fails other than by its member leaving. */
  static final int ATTEMPTS = 3;

  /** A finished call, or a wake-up (cell null) when the members changed. */
  private record Done(
      @Nullable Cell cell,
      @Nullable UUID member,
      @Nullable CellResult result,
      @Nullable Throwable failure) {}

  private final HazelcastInstance hz;
  private final Admission admission;
  private final Consumer<String> log;
  private final BlockingQueue<Done> done = new LinkedBlockingQueue<>();
  private final Map<Workload, SortedMap<String, byte[]>> files = new HashMap<>();

  Dispatcher(HazelcastInstance hz, Admission admission, Consumer<String> log) {
    this.hz = hz;
    this.admission = admission;
    this.log = log;
    admission.onChange(() -> done.add(new Done(null, null, null, null)));
  }

  /** Runs {@code todo} on the members; returns when every cell's result went to {@code results}. */
  void run(List<Cell> todo, CellExecutor.Results results) throws IOException, InterruptedException {
    Deque<Cell> pending = new ArrayDeque<>(todo);
    Map<UUID, Map<String, Cell>> running = new HashMap<>();
    Map<String, Integer> failures = new HashMap<>();
    IExecutorService executor = hz.getExecutorService(MemberConfig.CELLS);
    int remaining = todo.size();
    boolean toldWaiting = false;
    while (remaining > 0) {
      if (!hz.getLifecycleService().isRunning()) {
        throw new IOException(
            "the coordinator's cluster member stopped; run the same command"
                + " again to resume from cells.jsonl");
      }
      Map<UUID, Member> members = new LinkedHashMap<>();
      hz.getCluster().getMembers().forEach(m -> members.put(m.getUuid(), m));
      for (Map.Entry<UUID, Integer> slot : admission.admitted().entrySet()) {
        Member m = members.get(slot.getKey());
        Map<String, Cell> mine = running.computeIfAbsent(slot.getKey(), k -> new LinkedHashMap<>());
        while (m != null && mine.size() < slot.getValue() && !pending.isEmpty()) {
          Cell c = pending.poll();
          mine.put(c.runId(), c);
          submit(executor, c, m);
        }
      }
      boolean idle = running.values().stream().allMatch(Map::isEmpty);
      if (idle && !pending.isEmpty() && !toldWaiting) {
        log.accept("waiting for workers: no member is admitted to run cells");
        toldWaiting = true;
      }
      Done d = done.poll(1, TimeUnit.SECONDS);
      if (d == null || d.cell() == null) {
        continue;
      }
      toldWaiting = false;
      Map<String, Cell> mine = running.getOrDefault(d.member(), Map.of());
      if (mine.remove(d.cell().runId()) == null) {
        continue; // not outstanding (cannot happen: each submission completes once)
      }
      if (d.failure() == null) {
        results.finished(d.cell(), Objects.requireNonNull(d.result())); // no failure: a result
        remaining--;
      } else if (memberGone(d.failure())) {
        pending.addFirst(d.cell());
        log.accept(
            "cell "
                + d.cell().index()
                + " ("
                + d.cell().runId()
                + ") runs again: worker "
                + admission.address(Objects.requireNonNull(d.member())) // a call has a member
                + " left before it finished");
      } else if (failures.merge(d.cell().runId(), 1, Integer::sum) < ATTEMPTS) {
        pending.addFirst(d.cell());
        log.accept("cell " + d.cell().index() + " runs again: " + d.failure());
      } else {
        results.finished(
            d.cell(),
            new CellResult(
                d.cell().runId(),
                d.cell().seed(),
                null,
                0,
                0,
                0,
                "cluster: " + ATTEMPTS + " attempts failed, last: " + d.failure(),
                Map.of()));
        remaining--;
      }
    }
  }

  private void submit(IExecutorService executor, Cell c, Member m) {
    CellSpec spec = CellSpec.of(c, files.computeIfAbsent(c.workload(), CellSpec::filesOf));
    try {
      executor.submitToMember(
          new Calls.RunCell(spec),
          m,
          new ExecutionCallback<CellResult>() {
            @Override
            public void onResponse(CellResult r) {
              done.add(new Done(c, m.getUuid(), r, null));
            }

            @Override
            public void onFailure(Throwable t) {
              done.add(new Done(c, m.getUuid(), null, t));
            }
          });
    } catch (RuntimeException e) {
      done.add(new Done(c, m.getUuid(), null, e));
    }
  }

  /** Whether {@code t} says the member is gone (the cell did not finish there). */
  static boolean memberGone(Throwable t) {
    for (Throwable x = t; x != null; x = x.getCause()) {
      if (x instanceof MemberLeftException
          || x instanceof TargetNotMemberException
          || x instanceof HazelcastInstanceNotActiveException
          || x instanceof RejectedExecutionException) {
        return true;
      }
    }
    return false;
  }
}
