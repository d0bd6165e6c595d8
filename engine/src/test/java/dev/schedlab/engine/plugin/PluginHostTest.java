package dev.schedlab.engine.plugin;

import static dev.schedlab.engine.plugin.PluginZip.plugin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.api.ApiVersion;
import dev.schedlab.api.SchedMode;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.hook.BeforeDeactivateHook;
import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import dev.schedlab.engine.config.PluginRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginHostTest {
  @TempDir Path dir;

  private static PluginRef ref(String id) {
    return new PluginRef(id, Map.of());
  }

  private static PluginStatus status(PluginHost host, String id) {
    return host.plugins().stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void goodPluginLoadsAndItsHookIsUsed() throws Exception {
    Path zip =
        plugin("alpha")
            .with("hooks", "H1_PICK_OVERRIDE")
            .with("override", "H1_PICK_OVERRIDE")
            .zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThat(host.plugins())
          .singleElement()
          .satisfies(
              s -> {
                assertThat(s.loaded()).isTrue();
                assertThat(s.id()).isEqualTo("alpha");
                assertThat(s.version()).isEqualTo("1.0.0");
                assertThat(s.source()).isEqualTo(zip.toString());
                assertThat(s.descriptor().id()).isEqualTo("alpha");
              });
      Extensions ext = host.extensionsFor(List.of(ref("alpha")), Builtins.none());
      assertThat(ext.pickOverride())
          .isNotSameAs(PickOverrideHook.MAINLINE)
          .isInstanceOf(HookGuards.PickOverride.class);
      assertThat(ext.pickOverride().pickOverride(null, SchedMode.NONE, null, null)).isNull();
      assertThat(ext.beforeDeactivate()).isSameAs(BeforeDeactivateHook.MAINLINE);
      assertThat(ext.tick()).isNull();
      assertThat(ext.plugins()).extracting(p -> p.descriptor().id()).containsExactly("alpha");
      assertThat(ext.plugins().get(0).source()).isEqualTo(zip.toString());
    }
  }

  @Test
  void pluginsAreScannedWhenFirstAskedForNotByARunThatEnablesNone() throws Exception {
    try (PluginHost host = PluginHost.open(dir)) {
      assertThat(host.extensionsFor(List.of(), Builtins.none()).plugins()).isEmpty();
      plugin("alpha").zipInto(dir); // after the run: the host has not looked at the directory yet
      assertThat(status(host, "alpha").loaded()).isTrue();
      assertThat(host.extensionsFor(List.of(ref("alpha")), Builtins.none()).plugins()).hasSize(1);
    }
  }

  @Test
  void explodedDirectoryLoads() throws Exception {
    plugin("alpha").explodeInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThat(status(host, "alpha").loaded()).isTrue();
      assertThat(host.extensionsFor(List.of(ref("alpha")), Builtins.none()).plugins()).hasSize(1);
    }
  }

  @Test
  void corruptZipIsReportedWhileAnotherPluginLoads() throws Exception {
    Files.writeString(dir.resolve("broken.zip"), "this is not a zip");
    plugin("alpha").zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThat(host.plugins()).extracting(PluginStatus::id).containsExactly("alpha", "broken");
      assertThat(status(host, "alpha").loaded()).isTrue();
      PluginStatus broken = status(host, "broken");
      assertThat(broken.loaded()).isFalse();
      assertThat(broken.problem()).contains("corrupt");
      assertThatThrownBy(() -> host.extensionsFor(List.of(ref("broken")), Builtins.none()))
          .isInstanceOf(PluginException.class)
          .hasMessageContaining("broken")
          .hasMessageContaining("did not load")
          .hasMessageContaining("[alpha]");
    }
  }

  @Test
  void missingPluginPropertiesIsReported() {
    plugin("alpha").withoutPluginProperties().zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThat(status(host, "alpha").problem()).contains("missing plugin.properties");
    }
  }

  @Test
  void incompatibleApiRangeIsRejected() throws Exception {
    plugin("future").requires(">=2.0.0 & <3.0.0").zipInto(dir);
    plugin("alpha").zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      PluginStatus future = status(host, "future");
      assertThat(future.loaded()).isFalse();
      assertThat(future.problem())
          .contains("incompatible API")
          .contains(">=2.0.0 & <3.0.0")
          .contains(ApiVersion.CURRENT);
      assertThat(status(host, "alpha").loaded()).isTrue();
      assertThatThrownBy(() -> host.extensionsFor(List.of(ref("future")), Builtins.none()))
          .isInstanceOf(PluginException.class)
          .hasMessageContaining("incompatible API");
    }
  }

  @Test
  void descriptorThatDisagreesWithPluginPropertiesIsRefused() throws Exception {
    plugin("drifted").version("2.0.0").zipInto(dir);
    plugin("wide").requires(">=1.0.0").zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      PluginStatus drifted = status(host, "drifted");
      assertThat(drifted.loaded()).isFalse();
      assertThat(drifted.version()).isEqualTo("2.0.0");
      assertThat(drifted.problem())
          .contains("descriptor version '1.0.0' differs from plugin.version '2.0.0'");
      PluginStatus wide = status(host, "wide");
      assertThat(wide.loaded()).isFalse();
      assertThat(wide.requires()).isEqualTo(">=1.0.0");
      assertThat(wide.problem())
          .contains(
              "descriptor API range '>=1.0.0 & <2.0.0' differs from plugin.requires '>=1.0.0'");
    }
  }

  @Test
  void statusShowsTheRangePf4jEnforces() throws Exception {
    plugin("alpha").zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThat(status(host, "alpha").requires())
          .isEqualTo(">=1.0.0 & <2.0.0")
          .isEqualTo(status(host, "alpha").descriptor().requiresApi());
    }
  }

  @Test
  void inProcessPluginOutsideItsApiRangeDoesNotLoad() {
    SchedlabPlugin future =
        new SchedlabPlugin() {
          @Override
          public PluginDescriptor descriptor() {
            return new PluginDescriptor("future", "1.0.0", "test", Set.of(), Set.of(), ">=9.0.0");
          }

          @Override
          public void contribute(Contributions c, PluginOptions o) {}
        };
    try (PluginHost host = PluginHost.inProcess(() -> future)) {
      assertThat(status(host, "future").problem()).contains("incompatible API");
      assertThatThrownBy(() -> host.extensionsFor(List.of(ref("future")), Builtins.none()))
          .isInstanceOf(PluginException.class)
          .hasMessageContaining("did not load");
    }
  }

  @Test
  void pluginWithoutExtensionIsReported() {
    plugin("alpha").withoutIndex().zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThat(status(host, "alpha").problem()).contains("no SchedlabPlugin extension");
    }
  }

  @Test
  void descriptorIdMustMatchPluginId() {
    plugin("alpha").with("id", "other").zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThat(status(host, "alpha").problem())
          .contains("descriptor id 'other' differs from plugin.id 'alpha'");
    }
  }

  @Test
  void throwingDescriptorIsReported() {
    plugin("alpha").with("throw", "descriptor").zipInto(dir);
    plugin("beta").zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThat(status(host, "alpha").problem())
          .contains("descriptor() threw")
          .contains("descriptor exploded");
      assertThat(status(host, "beta").loaded()).isTrue();
    }
  }

  @Test
  void pluginBundlingItsOwnApiCopyStillLoads() throws Exception {
    plugin("alpha")
        .bundlingApi()
        .with("hooks", "H1_PICK_OVERRIDE")
        .with("override", "H1_PICK_OVERRIDE")
        .zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThat(status(host, "alpha").loaded()).isTrue();
      assertThat(host.extensionsFor(List.of(ref("alpha")), Builtins.none()).pickOverride())
          .isNotSameAs(PickOverrideHook.MAINLINE);
    }
  }

  @Test
  void twoPluginsOverridingAnExclusiveHookAreRefused() {
    plugin("alpha")
        .with("hooks", "H1_PICK_OVERRIDE")
        .with("override", "H1_PICK_OVERRIDE")
        .zipInto(dir);
    plugin("beta")
        .with("hooks", "H1_PICK_OVERRIDE")
        .with("override", "H1_PICK_OVERRIDE")
        .zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThatThrownBy(
              () -> host.extensionsFor(List.of(ref("alpha"), ref("beta")), Builtins.none()))
          .isInstanceOf(PluginException.class)
          .hasMessageContaining("alpha")
          .hasMessageContaining("beta")
          .hasMessageContaining("H1_PICK_OVERRIDE");
    }
  }

  @Test
  void undeclaredHookOverrideIsRefused() {
    plugin("alpha").with("override", "H5_TICK").zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThatThrownBy(() -> host.extensionsFor(List.of(ref("alpha")), Builtins.none()))
          .isInstanceOf(PluginException.class)
          .hasMessageContaining("alpha")
          .hasMessageContaining("H5_TICK")
          .hasMessageContaining("does not declare");
    }
  }

  @Test
  void declaredConflictIsRefusedInEitherDirection() {
    plugin("alpha").with("conflicts", "beta").zipInto(dir);
    plugin("beta").zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      for (List<PluginRef> order :
          List.of(List.of(ref("alpha"), ref("beta")), List.of(ref("beta"), ref("alpha")))) {
        assertThatThrownBy(() -> host.extensionsFor(order, Builtins.none()))
            .isInstanceOf(PluginException.class)
            .hasMessageContaining("alpha")
            .hasMessageContaining("beta")
            .hasMessageContaining("conflict");
      }
    }
  }

  @Test
  void unknownOptionKeyIsRefusedAndKnownOneAccepted() throws Exception {
    plugin("alpha").with("options", "slice").zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThatThrownBy(
              () ->
                  host.extensionsFor(
                      List.of(new PluginRef("alpha", Map.of("bogus", "1"))), Builtins.none()))
          .isInstanceOf(PluginException.class)
          .hasMessageContaining("alpha")
          .hasMessageContaining("bogus")
          .hasMessageContaining("slice");
      assertThat(
              host.extensionsFor(
                      List.of(new PluginRef("alpha", Map.of("slice", "5ms"))), Builtins.none())
                  .plugins())
          .hasSize(1);
    }
  }

  @Test
  void unknownPluginIdNamesTheAvailableOnes() {
    plugin("alpha").zipInto(dir);
    plugin("beta").zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThatThrownBy(() -> host.extensionsFor(List.of(ref("gamma")), Builtins.none()))
          .isInstanceOf(PluginException.class)
          .hasMessageContaining("unknown plugin gamma")
          .hasMessageContaining("[alpha, beta]");
    }
  }

  @Test
  void throwingHookSurfacesAsPluginFailureNamingPluginAndHook() throws Exception {
    plugin("alpha")
        .with("hooks", "H1_PICK_OVERRIDE")
        .with("override", "H1_PICK_OVERRIDE")
        .with("class", "tclass:100")
        .with("throw", "H1,class")
        .zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      Extensions ext = host.extensionsFor(List.of(ref("alpha")), Builtins.none());
      assertThatThrownBy(() -> ext.pickOverride().pickOverride(null, SchedMode.NONE, null, null))
          .isInstanceOfSatisfying(
              PluginFailure.class,
              f -> {
                assertThat(f.pluginId()).isEqualTo("alpha");
                assertThat(f.hook()).isEqualTo("H1 pickOverride");
                assertThat(f.getCause()).hasMessage("H1 exploded");
              });
      assertThatThrownBy(() -> ext.classes().get(0).pickNext(null))
          .isInstanceOfSatisfying(
              PluginFailure.class,
              f -> {
                assertThat(f.pluginId()).isEqualTo("alpha");
                assertThat(f.hook()).isEqualTo("class tclass.pickNext");
              });
    }
  }

  @Test
  void aPlacementHookFromAPluginIsGuardedAndUsed() throws Exception {
    plugin("alpha")
        .with("hooks", "H16_SELECT_TASK_RQ")
        .with("override", "H16_SELECT_TASK_RQ")
        .zipInto(dir);
    plugin("beta")
        .with("hooks", "H16_SELECT_TASK_RQ")
        .with("override", "H16_SELECT_TASK_RQ")
        .with("throw", "H16")
        .zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      Extensions ext = host.extensionsFor(List.of(ref("alpha")), Builtins.none());
      assertThat(ext.selectTaskRq().selectTaskRq(null, 3, 1, 0, 2)).isEqualTo(3);
      assertThat(ext.loadBalance()).isSameAs(dev.schedlab.api.hook.LoadBalanceHook.MAINLINE);
      Extensions bad = host.extensionsFor(List.of(ref("beta")), Builtins.none());
      assertThatThrownBy(() -> bad.selectTaskRq().selectTaskRq(null, 3, 1, 0, 2))
          .isInstanceOfSatisfying(
              PluginFailure.class,
              f -> {
                assertThat(f.pluginId()).isEqualTo("beta");
                assertThat(f.hook()).isEqualTo("H16 selectTaskRq");
              });
    }
  }

  @Test
  void classesAreOrderedByRankAndDuplicatesRefused() throws Exception {
    plugin("alpha").with("class", "ext:100").zipInto(dir);
    plugin("beta").with("class", "fair:150").zipInto(dir);
    Builtins builtins =
        new Builtins(
            List.of(new FakeClass("idle", 0), new FakeClass("fair", 200), new FakeClass("rt", 300)),
            List.of(),
            List.of());
    try (PluginHost host = PluginHost.open(dir)) {
      Extensions ext = host.extensionsFor(List.of(ref("alpha")), builtins);
      assertThat(ext.classes())
          .extracting(SchedulingClass::name)
          .containsExactly("rt", "fair", "ext", "idle");
      assertThatThrownBy(() -> host.extensionsFor(List.of(ref("beta")), builtins))
          .isInstanceOf(PluginException.class)
          .hasMessageContaining("'fair'")
          .hasMessageContaining("built-ins")
          .hasMessageContaining("beta");
    }
  }

  @Test
  void allowedCombinationsExcludeConflictsAndSharedExclusiveHooks() {
    plugin("alpha").zipInto(dir);
    plugin("beta").with("conflicts", "alpha").zipInto(dir);
    plugin("gamma").with("hooks", "H1_PICK_OVERRIDE,H15_METRICS").zipInto(dir);
    plugin("delta").with("hooks", "H1_PICK_OVERRIDE").zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThat(host.allowedCombinations())
          .containsExactly(
              List.of(),
              List.of("alpha"),
              List.of("beta"),
              List.of("delta"),
              List.of("gamma"),
              List.of("alpha", "delta"),
              List.of("alpha", "gamma"),
              List.of("beta", "delta"),
              List.of("beta", "gamma"));
    }
  }

  @Test
  void builtinOnlyHostHasNoPluginsAndMainlineHooks() throws Exception {
    try (PluginHost host = PluginHost.builtinOnly()) {
      assertThat(host.plugins()).isEmpty();
      assertThat(host.allowedCombinations()).containsExactly(List.of());
      Extensions ext = host.extensionsFor(List.of());
      assertThat(ext.pickOverride()).isSameAs(PickOverrideHook.MAINLINE);
      assertThat(ext.metrics()).isEmpty();
      assertThatThrownBy(() -> host.extensionsFor(List.of(ref("alpha"))))
          .isInstanceOf(PluginException.class)
          .hasMessageContaining("no plugins are loaded");
    }
  }

  @Test
  void missingDirectoryMeansNoPlugins() {
    try (PluginHost host = PluginHost.open(dir.resolve("nope"))) {
      assertThat(host.plugins()).isEmpty();
    }
  }

  @Test
  void closedHostRefusesToResolve() {
    plugin("alpha").zipInto(dir);
    PluginHost host = PluginHost.open(dir);
    host.close();
    host.close();
    assertThatThrownBy(() -> host.extensionsFor(List.of(), Builtins.none()))
        .isInstanceOf(IllegalStateException.class);
  }
}
