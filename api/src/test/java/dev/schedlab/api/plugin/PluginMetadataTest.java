package dev.schedlab.api.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

class PluginMetadataTest {
  @Test
  void readsTheResourceOfTheClassPathEntryThatHoldsTheClass() {
    PluginMetadata m = PluginMetadata.of(PluginMetadataTest.class);
    assertThat(m).isEqualTo(new PluginMetadata("metadata-test", "3.1.4", ">=1.2.0 & <2.0.0"));
    PluginDescriptor d = m.descriptor("lore x", Set.of(HookPoint.H1_PICK_OVERRIDE), Set.of("y"));
    assertThat(d)
        .isEqualTo(
            new PluginDescriptor(
                "metadata-test",
                "3.1.4",
                "lore x",
                Set.of(HookPoint.H1_PICK_OVERRIDE),
                Set.of("y"),
                ">=1.2.0 & <2.0.0"));
  }

  @Test
  void aClassFromAnotherEntryDoesNotSeeThisOne() {
    // JUnit's jar has no metadata: the test-classes resource is not taken for it.
    assertThatThrownBy(() -> PluginMetadata.of(Test.class))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(PluginMetadata.RESOURCE)
        .hasMessageContaining("schedlab-plugin-parent");
  }
}
