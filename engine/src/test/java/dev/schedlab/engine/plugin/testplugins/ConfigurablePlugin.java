package dev.schedlab.engine.plugin.testplugins;

import dev.schedlab.api.Policy;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.hook.TickHook;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.pf4j.Extension;

/**
 * The test plugin packed into zips by {@code PluginZip}. It behaves as its own {@code
 * schedlab-test-plugin.properties} (inside the zip) says: {@code id}, {@code hooks} and {@code
 * conflicts} of the descriptor, {@code override} (hook points it really overrides), {@code options}
 * (option keys), {@code class} (adds a class {@code name:rank}), {@code throw} ({@code descriptor},
 * {@code H1} or {@code class}).
 */
@Extension
public final class ConfigurablePlugin implements SchedlabPlugin {
  /** The resource holding the behaviour. */
  public static final String CONFIG = "schedlab-test-plugin.properties";

  private final Properties config = load();

  private static Properties load() {
    Properties p = new Properties();
    try (InputStream in = ConfigurablePlugin.class.getClassLoader().getResourceAsStream(CONFIG)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }

  private Set<String> list(String key) {
    String v = config.getProperty(key, "").trim();
    return v.isEmpty()
        ? Set.of()
        : Arrays.stream(v.split(",")).map(String::trim).collect(Collectors.toSet());
  }

  private boolean throwsIn(String what) {
    return list("throw").contains(what);
  }

  @Override
  public PluginDescriptor descriptor() {
    if (throwsIn("descriptor")) {
      throw new IllegalStateException("descriptor exploded");
    }
    Set<HookPoint> hooks =
        list("hooks").stream().map(HookPoint::valueOf).collect(Collectors.toSet());
    return new PluginDescriptor(
        config.getProperty("id"), "1.0.0", "test", hooks, list("conflicts"), ">=1.0.0 & <2.0.0");
  }

  @Override
  public Set<String> optionKeys() {
    return list("options");
  }

  @Override
  public void contribute(Contributions c, PluginOptions options) {
    for (String point : list("override")) {
      switch (HookPoint.valueOf(point)) {
        case H1_PICK_OVERRIDE ->
            c.hook(
                PickOverrideHook.class,
                (cpu, mode, prev, rq) -> {
                  if (throwsIn("H1")) {
                    throw new IllegalStateException("H1 exploded");
                  }
                  return prev;
                });
        case H5_TICK -> c.hook(TickHook.class, (cpu, curr, services) -> {});
        case H16_SELECT_TASK_RQ ->
            c.hook(
                dev.schedlab.api.hook.SelectTaskRqHook.class,
                (p, prev, waker, flags, selected) -> {
                  if (throwsIn("H16")) {
                    throw new IllegalStateException("H16 exploded");
                  }
                  return prev;
                });
        default -> throw new IllegalArgumentException("test plugin cannot override " + point);
      }
    }
    String cls = config.getProperty("class");
    if (cls != null) {
      String[] nr = cls.split(":");
      c.addSchedulingClass(new TestClass(nr[0], Integer.parseInt(nr[1]), throwsIn("class")));
    }
  }

  /** A scheduling class that queues nothing. */
  static final class TestClass implements SchedulingClass {
    private final String name;
    private final int rank;
    private final boolean explode;

    TestClass(String name, int rank, boolean explode) {
      this.name = name;
      this.rank = rank;
      this.explode = explode;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public int rank() {
      return rank;
    }

    @Override
    public boolean handles(Policy policy) {
      return policy == Policy.EXT;
    }

    @Override
    public void enqueue(RqView rq, TaskView p, int flags) {}

    @Override
    public boolean dequeue(RqView rq, TaskView p, int flags) {
      return true;
    }

    @Override
    public TaskView pickNext(RqView rq) {
      if (explode) {
        throw new UnsupportedOperationException("pickNext exploded");
      }
      return null;
    }

    @Override
    public void putPrev(RqView rq, TaskView prev) {}

    @Override
    public void setNext(RqView rq, TaskView next) {}

    @Override
    public void tick(RqView rq, TaskView curr) {}

    @Override
    public void wakeupPreempt(RqView rq, TaskView p, int wakeFlags) {}

    @Override
    public int selectCpu(TaskView p, int prevCpu, int wakerCpu, int wakeFlags) {
      return prevCpu;
    }

    @Override
    public int nrQueued(RqView rq) {
      return 0;
    }
  }
}
