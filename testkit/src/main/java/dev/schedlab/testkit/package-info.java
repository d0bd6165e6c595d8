/**
 * JUnit 5 support for schedlab plugin tests: {@link dev.schedlab.testkit.PluginKit} runs plugins in
 * the engine on a {@link dev.schedlab.testkit.TestScenario}; {@link
 * dev.schedlab.testkit.FakeKernel} and {@link dev.schedlab.testkit.TestTask} serve unit tests of a
 * single class or model.
 */
package dev.schedlab.testkit;
