package dev.schedlab.samples.halt;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginMetadata;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.IdleStateView;
import dev.schedlab.api.view.MachineView;
import java.util.List;
import java.util.Set;
import org.pf4j.Extension;

/**
 * Sample 01: an idle policy.
 *
 * <p>A plugin is a class implementing {@link SchedlabPlugin}, marked {@code @Extension} so that
 * PF4J's annotation processor lists it in {@code META-INF/extensions.idx}. The host calls {@link
 * #descriptor()} when it loads the zip and {@link #contribute} once per run.
 *
 * <p>The descriptor's id, version and API range come from the pom (the properties {@code
 * plugin.id}, the project version, {@code plugin.requires}) through {@link PluginMetadata}: the
 * same values PF4J reads from the zip's {@code plugin.properties}, so {@code schedlab plugins}
 * shows what the host enforces. An idle policy is not a hook point, so the descriptor lists no
 * hooks.
 *
 * <p>The policy, {@code sample-halt}, is what a kernel booted with {@code idle=halt} does: every
 * idle CPU takes the shallowest state that is not a polling loop (C1: HLT or MWAIT on x86) and the
 * tick is never stopped. Scenarios choose it with {@code machine.idle_governor: sample-halt}; a
 * policy a plugin adds is named like a built-in one ({@code menu}) and the scenario is an error
 * without the plugin.
 *
 * <h2>Models / Does not model / Kernel reference</h2>
 *
 * <p>Models the state choice of {@code idle=halt}; does not model the x86 {@code default_idle()}
 * path outside cpuidle (the engine's idle loop is cpuidle's); kernel reference
 * arch/x86/kernel/process.c {@code idle_setup()}, Documentation/admin-guide/pm/cpuidle.rst.
 *
 * <h2>How to run</h2>
 *
 * <pre>
 * mvn -pl samples/01-idle-policy -am verify        # from the repository root; the zip is in target/plugins
 * ./schedlab run examples/quickstart.yaml --set machine.idle_governor=sample-halt \
 *     --plugins-dir samples/01-idle-policy/target/plugins --plugin sample-halt
 * </pre>
 */
@Extension
public final class Sample01HaltPlugin implements SchedlabPlugin {
  private static final PluginMetadata BUILD = PluginMetadata.of(Sample01HaltPlugin.class);

  @Override
  public PluginDescriptor descriptor() {
    return BUILD.descriptor("idle=halt (arch/x86/kernel/process.c)", Set.of(), Set.of());
  }

  @Override
  public void contribute(Contributions contributions, PluginOptions options) {
    // A new instance per run: policies may keep per-run state.
    contributions.addIdlePolicy(new HaltPolicy(BUILD.id()));
  }

  /** The shallowest enabled state that is not a software polling loop; the tick keeps running. */
  static final class HaltPolicy implements IdlePolicy {
    private final String name;
    private List<? extends IdleStateView> states = List.of();

    HaltPolicy(String name) {
      this.name = name;
    }

    @Override
    public void init(MachineView machine) {
      states = machine.idleStates();
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public int select(CpuView cpu, long sleepLengthNs, long tickDeltaNs, long latencyLimitNs) {
      for (int i = 0; i < states.size(); i++) {
        if (states.get(i).enabled() && !states.get(i).flagPolling()) {
          return i;
        }
      }
      return 0; // only polling states: poll
    }

    @Override
    public boolean stopTick(CpuView cpu, int stateIndex, long sleepLengthNs) {
      return false;
    }
  }
}
