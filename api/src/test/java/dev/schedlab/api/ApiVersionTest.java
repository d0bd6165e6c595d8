package dev.schedlab.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ApiVersionTest {
  @Test
  void currentIsTheBuildPropertyReadAtRunTime() throws Exception {
    assertThat(ApiVersion.CURRENT).isEqualTo(System.getProperty("schedlab.api.version"));
    // Not a compile-time constant: a plugin compiled against this jar must not inline it.
    assertThat(ApiVersion.class.getField("CURRENT").getType()).isEqualTo(String.class);
    assertThat(
            ApiVersion.class.getDeclaredField("CURRENT").getModifiers()
                & java.lang.reflect.Modifier.FINAL)
        .isNotZero();
  }
}
