package dev.schedlab.testkit;

import dev.schedlab.api.ReschedBit;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.RqView;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The least of a kernel a unit test of a scheduling class, idle policy or preemption model needs:
 * CPUs that are idle or not, runqueues that know their CPU and a clock the test sets, and services
 * that record reschedule requests. Nothing runs by itself: the test calls the callbacks. Anything
 * else a callback asks for fails with a message naming it; such behaviour is tested in a running
 * kernel with {@link PluginKit}.
 *
 * <pre>{@code
 * FakeKernel k = new FakeKernel(4);
 * MyClass cls = new MyClass();
 * cls.init(k.machine(), k.services());
 * cls.enqueue(k.rq(0), TestTask.of(1).weight(2048), SchedFlags.ENQUEUE_INITIAL);
 * cls.tick(k.rq(0), curr);
 * assertThat(k.resched()).containsExactly("0:SLICE_EXPIRY_TICK");
 * }</pre>
 */
public final class FakeKernel {
  /** The tick of the fake machine: HZ 250, as a small x86 distribution kernel. */
  public static final long TICK_NS = 4_000_000L;

  private final int nrCpus;
  private final boolean[] idle;
  private final List<String> resched = new ArrayList<>();
  private final MachineView machine;
  private final SchedServices services;
  private long now;

  /** A machine of {@code nrCpus} CPUs, all busy, at time 0. */
  public FakeKernel(int nrCpus) {
    this.nrCpus = nrCpus;
    this.idle = new boolean[nrCpus];
    this.machine =
        fake(
            MachineView.class,
            (name, args) ->
                switch (name) {
                  case "nrCpus" -> nrCpus;
                  case "cpu" -> cpu((Integer) args[0]);
                  case "tickNs" -> TICK_NS;
                  case "hz" -> 250;
                  case "virtualized" -> false;
                  default -> unsupported(MachineView.class, name);
                });
    this.services =
        fake(
            SchedServices.class,
            (name, args) ->
                switch (name) {
                  case "resched" -> {
                    resched.add(args[0] + ":" + (ReschedReason) args[1]);
                    yield null;
                  }
                  case "setResched" -> {
                    resched.add(args[0] + ":" + (ReschedBit) args[1]);
                    yield null;
                  }
                  case "machine" -> machine;
                  case "now" -> now;
                  default -> unsupported(SchedServices.class, name);
                });
  }

  /** The machine view to hand to {@code init}. */
  public MachineView machine() {
    return machine;
  }

  /** The services to hand to {@code init}; {@code resched} and {@code setResched} are recorded. */
  public SchedServices services() {
    return services;
  }

  /** The runqueue of {@code cpu}: its {@code cpu()} and {@code clock()} (the kernel's time). */
  public RqView rq(int cpu) {
    checkCpu(cpu);
    return fake(
        RqView.class,
        (name, args) ->
            switch (name) {
              case "cpu" -> cpu;
              case "clock" -> now;
              default -> unsupported(RqView.class, name);
            });
  }

  /** Marks {@code cpu} idle or busy ({@code CpuView.isIdle()}). */
  public FakeKernel setIdle(int cpu, boolean isIdle) {
    checkCpu(cpu);
    idle[cpu] = isIdle;
    return this;
  }

  /** Sets the time that {@code now()} and every runqueue's {@code clock()} return. */
  public FakeKernel setClock(long ns) {
    now = ns;
    return this;
  }

  /** The reschedule requests so far, {@code "CPU:REASON"} or {@code "CPU:BIT"}, oldest first. */
  public List<String> resched() {
    return resched;
  }

  private CpuView cpu(int id) {
    checkCpu(id);
    return fake(
        CpuView.class,
        (name, args) ->
            switch (name) {
              case "id" -> id;
              case "isIdle" -> idle[id];
              case "rq" -> rq(id);
              default -> unsupported(CpuView.class, name);
            });
  }

  private void checkCpu(int cpu) {
    if (cpu < 0 || cpu >= nrCpus) {
      throw new IndexOutOfBoundsException("CPU " + cpu + " of a " + nrCpus + "-CPU FakeKernel");
    }
  }

  private static Object unsupported(Class<?> type, String method) {
    throw new UnsupportedOperationException(
        "FakeKernel does not model "
            + type.getSimpleName()
            + "."
            + method
            + "(); test this in a running kernel with PluginKit");
  }

  private interface Answer {
    @Nullable Object answer(String method, Object[] args);
  }

  @SuppressWarnings("unchecked")
  private static <T> T fake(Class<T> type, Answer answer) {
    return (T)
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, m, args) ->
                switch (m.getName()) {
                  case "toString" -> type.getSimpleName();
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  default ->
                      m.isDefault()
                          ? java.lang.reflect.InvocationHandler.invokeDefault(proxy, m, args)
                          : answer.answer(m.getName(), args);
                });
  }
}
