package dev.schedlab.engine.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Random;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Layering and determinism rules over the production classes of api, classes and engine (the
 * classes module is on engine's test class path). Each failure names the rule and the fix.
 */
class ArchitectureTest {
  private static JavaClasses production;

  @BeforeAll
  static void importClasses() {
    production =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.schedlab.api", "dev.schedlab.classes", "dev.schedlab.engine");
  }

  @Test
  void apiDependsOnlyOnTheJdkAndPf4j() {
    ArchRule rule =
        classes()
            .that()
            .resideInAPackage("dev.schedlab.api..")
            .should()
            .onlyDependOnClassesThat()
            .resideInAnyPackage("java..", "org.pf4j..", "dev.schedlab.api..")
            .because("plugins compile against the api jar alone: move other code to engine");
    rule.check(production);
  }

  @Test
  void apiDoesNotReferenceGuice() {
    ArchRule rule =
        noClasses()
            .that()
            .resideInAPackage("dev.schedlab.api..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("com.google.inject..")
            .because("Guice assembles the application in cli; plugins never see it");
    rule.check(production);
  }

  @Test
  void builtinClassesDependOnlyOnTheJdkAndTheApi() {
    ArchRule rule =
        classes()
            .that()
            .resideInAPackage("dev.schedlab.classes..")
            .should()
            .onlyDependOnClassesThat()
            .resideInAnyPackage("java..", "dev.schedlab.api..", "dev.schedlab.classes..")
            .allowEmptyShould(true)
            .because("built-in scheduling classes are written like plugins: against the API only");
    rule.check(production);
  }

  @Test
  void modelCodeUsesNoWallClockUnseededRandomOrThreads() {
    ArchRule rule =
        noClasses()
            .that()
            .resideInAnyPackage(
                "dev.schedlab.api..", "dev.schedlab.classes..", "dev.schedlab.engine.core..")
            .should()
            .callMethod(System.class, "currentTimeMillis")
            .orShould()
            .callMethod(System.class, "nanoTime")
            .orShould()
            .callConstructor(Random.class)
            .orShould()
            .dependOnClassesThat()
            .belongToAnyOf(Thread.class, Executors.class)
            .allowEmptyShould(true)
            .because(
                "the model is deterministic: read time from the simulated clock (services.now()),"
                    + " derive randomness from the scenario seed, and run on the simulation thread only");
    rule.check(production);
  }

  @Test
  void inThePluginHostOnlyTheHookBudgetReadsTheWallClockOrStartsThreads() {
    ArchRule rule =
        noClasses()
            .that()
            .resideInAPackage("dev.schedlab.engine.plugin..")
            .and()
            .doNotHaveSimpleName("HookBudget")
            .should()
            .callMethod(System.class, "currentTimeMillis")
            .orShould()
            .callMethod(System.class, "nanoTime")
            .orShould()
            .callConstructor(Thread.class, Runnable.class, String.class)
            .because(
                "guards run on the simulation thread and must stay deterministic; the wall-clock"
                    + " budget of a plugin call is watched from HookBudget's own thread (docs/plugin-safety.md)");
    rule.check(production);
  }
}
