package dev.schedlab.engine;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import dev.schedlab.engine.core.KernelRun;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.config.RunConfig;

/**
 * Guice wiring of one run: the scenario, the resolved extensions (built-ins plus enabled plugins)
 * and the trace sink go in; a prepared {@link KernelRun} comes out. Guice stays in the engine and
 * CLI; the API and plugins never see it.
 */
final class EngineModule extends AbstractModule {
  private final RunConfig scenario;
  private final Extensions extensions;
  private final TraceSink trace;

  EngineModule(RunConfig scenario, Extensions extensions, TraceSink trace) {
    this.scenario = scenario;
    this.extensions = extensions;
    this.trace = trace;
  }

  @Override
  protected void configure() {
    bind(RunConfig.class).toInstance(scenario);
    bind(Extensions.class).toInstance(extensions);
    bind(TraceSink.class).toInstance(trace);
  }

  @Provides
  KernelRun kernelRun(RunConfig s, Extensions e, TraceSink t) {
    return KernelRun.prepare(s, e, t);
  }
}
