package dev.schedlab.cli;

import com.google.inject.AbstractModule;
import java.time.Clock;
import java.time.InstantSource;

/**
 * How the {@code schedlab} application is assembled: where plugins come from, how output files are
 * written, which wall clock progress reads, and (through {@link MatrixModule}) what runs a matrix's
 * cells. {@link Main} builds the one injector from this module; commands, their option mixins and
 * everything they are given come from it. The API, the model and plugins never see Guice.
 */
final class AppModule extends AbstractModule {
  @Override
  protected void configure() {
    bind(PluginSource.class).toInstance(PluginSource.ENVIRONMENT);
    bind(OutputFiles.class).toInstance(OutputFiles.ATOMIC);
    bind(InstantSource.class).toInstance(Clock.systemUTC());
    install(new MatrixModule());
  }
}
