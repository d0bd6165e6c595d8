package dev.schedlab.cli;

import com.google.inject.ConfigurationException;
import com.google.inject.Injector;
import picocli.CommandLine;

/**
 * picocli's factory backed by the application's injector: the commands and their option mixins are
 * built by Guice, so they receive what {@link AppModule} chose. Types Guice cannot build (picocli's
 * own collections, for example) fall back to picocli's default factory.
 */
final class GuiceFactory implements CommandLine.IFactory {
  private final Injector injector;

  GuiceFactory(Injector injector) {
    this.injector = injector;
  }

  @Override
  public <K> K create(Class<K> cls) throws Exception {
    try {
      return injector.getInstance(cls);
    } catch (ConfigurationException e) {
      return CommandLine.defaultFactory().create(cls);
    }
  }
}
