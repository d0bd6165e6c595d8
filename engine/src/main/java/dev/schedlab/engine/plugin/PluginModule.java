package dev.schedlab.engine.plugin;

import com.google.inject.AbstractModule;
import java.util.Objects;

/**
 * Guice wiring of one run's {@link Extensions}. Guice stays in the engine: plugins never see it,
 * and PF4J creates their extensions with its default factory.
 */
final class PluginModule extends AbstractModule {
  private final Extensions extensions;

  /** A module binding {@code extensions}, as resolved by {@link PluginHost#extensionsFor}. */
  public PluginModule(Extensions extensions) {
    this.extensions = Objects.requireNonNull(extensions, "extensions");
  }

  @Override
  protected void configure() {
    bind(Extensions.class).toInstance(extensions);
  }
}
