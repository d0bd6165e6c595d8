package dev.schedlab.checks;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.freeze.FreezingArchRule;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The architecture of the whole tree, checked on the main classes of every module (all are
 * dependencies of this module). Each rule says why, so a failure names the fix. Rules with known
 * violations that another change removes are frozen ({@link FreezingArchRule}): the violations
 * recorded in {@code checks/src/test/resources/archunit-store} are tolerated, any new one fails,
 * and the store shrinks as they are fixed.
 */
class ArchitectureTest {
  /** The model: the API, built-in classes, plugins and examples, and the engine's model core. */
  static final String[] MODEL = {
    "dev.schedlab.api..",
    "dev.schedlab.classes..",
    "dev.schedlab.plugins..",
    "dev.schedlab.examples..",
    "dev.schedlab.samples..",
    "dev.schedlab.engine.config..",
    "dev.schedlab.engine.core..",
    "dev.schedlab.engine.idle..",
    "dev.schedlab.engine.machine..",
    "dev.schedlab.engine.output..",
    "dev.schedlab.engine.params..",
    "dev.schedlab.engine.plugin..",
    "dev.schedlab.engine.preempt..",
    "dev.schedlab.engine.sim..",
    // The workload generators and the scenario binding make the task programs from the seed.
    "dev.schedlab.engine.workload..",
    "dev.schedlab.engine.rtapp..",
    "dev.schedlab.engine.scenario..",
    "dev.schedlab.lab.workload..",
    "dev.schedlab.lab.rtapp..",
    "dev.schedlab.lab.scenario..",
    // The writers of results and traces: their bytes are the digests.
    "dev.schedlab.lab.output..",
  };

  /**
   * Model classes (by simple name, so that a move between packages keeps them) that make a hash
   * container and iterate a map or set, checked by hand: each iteration is order-insensitive or
   * over a sorted container. A new entry needs the same check and its reason here.
   */
  static final Set<String> ORDER_INSENSITIVE_HASH_ITERATION =
      Set.of(
          // rawSamples() and snapshot() copy the HashMaps into TreeMaps.
          "Metrics",
          // names() copies the keys into a TreeSet.
          "ParamTable",
          // Its HashSet only detects a plugin enabled twice; the map it iterates is a TreeMap.
          "PluginHost",
          // Its HashSet only detects duplicate task names; the lock map it iterates is a TreeMap.
          "TaskBinder",
          // keySet().removeIf()/removeAll() and forEach() into another HashMap: order-free.
          "LocatedTree",
          "MachineFile");

  private static JavaClasses production;

  @BeforeAll
  static void importEveryModule() {
    production =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.schedlab");
    assertThat(production.containPackage("dev.schedlab.samples.conflict"))
        .as("every module is on this module's class path")
        .isTrue();
  }

  @Test
  void apiDependsOnlyOnTheJdkPf4jAndJspecify() {
    ArchRule rule =
        classes()
            .that()
            .resideInAPackage("dev.schedlab.api..")
            .should()
            .onlyDependOnClassesThat()
            .resideInAnyPackage("java..", "org.pf4j..", "org.jspecify..", "dev.schedlab.api..")
            .because("plugins compile against the api jar alone: move other code out of the API");
    rule.check(production);
  }

  @Test
  void builtInClassesPluginsExamplesAndSamplesDependOnlyOnTheApi() {
    for (String root : List.of("classes", "plugins", "examples", "samples")) {
      ArchRule rule =
          classes()
              .that()
              .resideInAPackage("dev.schedlab." + root + "..")
              .should()
              .onlyDependOnClassesThat()
              .resideInAnyPackage(
                  "java..",
                  "org.pf4j..",
                  "org.jspecify..",
                  "dev.schedlab.api..",
                  "dev.schedlab." + root + "..")
              .because("they are written like third-party plugins: against the API only");
      rule.check(production);
    }
  }

  @Test
  void cliUsesTheLabNotTheEngine() {
    ArchRule rule =
        noClasses()
            .that()
            .resideInAPackage("dev.schedlab.cli..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.schedlab.engine..")
            .because(
                "the CLI uses only the lab's public API (dev.schedlab.lab.run: Plugins, ScenarioRun,"
                    + " RunOutcome, ...): add what a command needs there, not an engine import");
    rule.check(production);
  }

  @Test
  void cliCallsNothingThatTakesOrReturnsAnEngineType() {
    // An engine value passed straight from one lab call to another is no import, yet the CLI
    // would still handle the model's types: the lab's API hides them behind its own (a replay's
    // plugins, for example, go from ScenarioRun to ReplayRun without the CLI seeing Extensions).
    ArchRule rule =
        noClasses()
            .that()
            .resideInAPackage("dev.schedlab.cli..")
            .should()
            .callCodeUnitWhere(
                DescribedPredicate.describe(
                    "a method or constructor with an engine type in its signature",
                    (JavaCall<?> call) ->
                        Stream.concat(
                                call.getTarget().getRawParameterTypes().stream(),
                                Stream.of(call.getTarget().getRawReturnType()))
                            .anyMatch(t -> t.getPackageName().startsWith("dev.schedlab.engine"))))
            .because(
                "the CLI reaches the model through the lab's and trace-import's own types"
                    + " (ScenarioRun, RunOutcome, ReplayRun, ...), never the engine's");
    rule.check(production);
  }

  @Test
  void noPackageCycles() {
    ArchRule rule =
        slices()
            .matching("dev.schedlab.(**)")
            .should()
            .beFreeOfCycles()
            .because("each package is a layer: a cycle means two packages are one");
    FreezingArchRule.freeze(rule).check(production);
  }

  @Test
  void modelUsesNoWallClockAndNoUnseededRandomness() {
    ArchRule rule =
        noClasses()
            .that()
            .resideInAnyPackage(MODEL)
            // The plugin host's wall-clock budget of a plugin call, outside the model
            // (docs/plugin-safety.md); its thread never touches model state.
            .and()
            .doNotHaveFullyQualifiedName("dev.schedlab.engine.plugin.HookBudget")
            .should()
            .callMethod(System.class, "currentTimeMillis")
            .orShould()
            .callMethod(System.class, "nanoTime")
            .orShould()
            .callMethodWhere(named(java.time.Instant.class, "now"))
            .orShould()
            .callMethodWhere(named(java.time.LocalDateTime.class, "now"))
            .orShould()
            .callMethodWhere(named(java.time.Clock.class, "systemUTC"))
            .orShould()
            .callMethodWhere(named(java.time.Clock.class, "systemDefaultZone"))
            .orShould()
            .callMethod(Math.class, "random")
            .orShould()
            .callConstructor(Random.class)
            .orShould()
            .callConstructor(SplittableRandom.class)
            .orShould()
            .dependOnClassesThat()
            .belongToAnyOf(ThreadLocalRandom.class)
            .because(
                "the model is deterministic: time is the simulated clock (services.now()) and"
                    + " randomness is derived from the scenario seed (new Random(seed))");
    rule.check(production);
  }

  @Test
  void modelDoesNotIterateInHashOrder() {
    ArchRule rule =
        classes()
            .that()
            .resideInAnyPackage(MODEL)
            .and(
                DescribedPredicate.describe(
                    "are not checked by hand (ORDER_INSENSITIVE_HASH_ITERATION)",
                    (JavaClass c) -> !ORDER_INSENSITIVE_HASH_ITERATION.contains(c.getSimpleName())))
            .should(notMakeAHashContainerAndIterateAMapOrSet())
            .because(
                "HashMap/HashSet order depends on hash codes, which may differ between runs and"
                    + " JDKs: iterate a TreeMap/LinkedHashMap (or sort the keys) so output is byte-identical");
    rule.check(production);
  }

  /** A call to {@code name} declared by {@code owner} (any overload). */
  private static DescribedPredicate<JavaMethodCall> named(Class<?> owner, String name) {
    return DescribedPredicate.describe(
        owner.getSimpleName() + "." + name + "()",
        call -> call.getTargetOwner().isEquivalentTo(owner) && call.getName().equals(name));
  }

  /**
   * The approximation of "iterates in hash order": bytecode does not tell which map a call to
   * {@code Map.values()} reaches, so a class fails when it both constructs a HashMap/HashSet and
   * iterates a Map or Set (keySet, values, entrySet, forEach, iterator, stream, toArray).
   */
  private static ArchCondition<JavaClass> notMakeAHashContainerAndIterateAMapOrSet() {
    Set<String> iteration =
        Set.of(
            "keySet",
            "values",
            "entrySet",
            "forEach",
            "iterator",
            "spliterator",
            "stream",
            "parallelStream",
            "toArray");
    return new ArchCondition<>("not both construct a HashMap/HashSet and iterate a Map or Set") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        boolean makesHash =
            c.getConstructorCallsFromSelf().stream()
                .anyMatch(
                    call ->
                        call.getTargetOwner().isEquivalentTo(HashMap.class)
                            || call.getTargetOwner().isEquivalentTo(HashSet.class));
        if (!makesHash) {
          return;
        }
        for (JavaMethodCall call : c.getMethodCallsFromSelf()) {
          JavaClass owner = call.getTargetOwner();
          boolean mapOrSet =
              owner.isAssignableTo(Map.class)
                  || owner.isAssignableTo(Set.class)
                  || owner.isEquivalentTo(Collection.class)
                  || owner.isEquivalentTo(Iterable.class);
          boolean sorted =
              owner.isAssignableTo(java.util.SortedMap.class)
                  || owner.isAssignableTo(java.util.SortedSet.class)
                  || owner.isAssignableTo(java.util.LinkedHashMap.class)
                  || owner.isAssignableTo(java.util.LinkedHashSet.class)
                  || owner.isAssignableTo(java.util.List.class);
          if (mapOrSet && !sorted && iteration.contains(call.getName())) {
            events.add(SimpleConditionEvent.violated(call, describe(call)));
          }
        }
      }
    };
  }

  private static String describe(JavaAccess<?> call) {
    return call.getOrigin().getFullName()
        + " iterates "
        + call.getTarget().getFullName()
        + " in a class that makes a HashMap/HashSet "
        + call.getSourceCodeLocation();
  }
}
