package dev.schedlab.samples.fifo;

import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginMetadata;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import java.util.Set;
import org.pf4j.Extension;

/**
 * Sample 02: a scheduling class.
 *
 * <p>The plugin adds {@link FifoClass}, which takes the tasks of {@code policy: ext} (the sched_ext
 * slot, ranked below fair): without the plugin such tasks run in the fair class, with it in this
 * one. The engine drives a class through the callbacks of {@code struct sched_class}: {@code
 * enqueue}/{@code dequeue} when a task becomes runnable or blocks, {@code pickNext} in {@code
 * __schedule()}, {@code tick} from the scheduler tick, {@code selectCpu} on wakeup. The class keeps
 * its per-task state in the task's class-data slot and its queues per CPU.
 *
 * <h2>How to run</h2>
 *
 * <pre>
 * mvn -pl samples/02-fifo-class -am verify
 * ./schedlab run SCENARIO --plugins-dir samples/02-fifo-class/target/plugins --plugin sample-fifo
 * </pre>
 *
 * where SCENARIO has tasks with {@code policy: ext} (see the sample's test).
 */
@Extension
public final class Sample02FifoPlugin implements SchedlabPlugin {
  private static final PluginMetadata BUILD = PluginMetadata.of(Sample02FifoPlugin.class);

  @Override
  public PluginDescriptor descriptor() {
    return BUILD.descriptor(
        "SCHED_FIFO without priorities (kernel/sched/rt.c)", Set.of(), Set.of());
  }

  @Override
  public void contribute(Contributions contributions, PluginOptions options) {
    contributions.addSchedulingClass(new FifoClass());
  }
}
