package dev.schedlab.lab.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The model/lab split: the lab reaches the model only through the engine's entry point (the
 * Simulation facade, its configuration records, results and trace, the plugin host and the
 * parameter table), the engine never reaches back, and neither has a package cycle.
 */
class LabLayeringTest {
  private static JavaClasses production;

  @BeforeAll
  static void importClasses() {
    production =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.schedlab.engine", "dev.schedlab.lab");
  }

  @Test
  void labUsesTheModelOnlyThroughTheFacade() {
    noClasses()
        .that()
        .resideInAPackage("dev.schedlab.lab..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.schedlab.engine.core..",
            "dev.schedlab.engine.sim..",
            "dev.schedlab.engine.machine..",
            "dev.schedlab.engine.idle..",
            "dev.schedlab.engine.preempt..")
        .because("the lab builds runs through dev.schedlab.engine.Simulation and RunConfig")
        .check(production);
  }

  @Test
  void labTestsToo() {
    // Mechanism tests of the engine live in the engine's test tree (they build runs with its
    // TestRun fixture); a lab test that needs a lab tool runs the model as the lab does.
    JavaClasses tests = new ClassFileImporter().importPath(Path.of("target", "test-classes"));
    noClasses()
        .should()
        .resideInAPackage("dev.schedlab.engine..")
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.schedlab.engine.core..",
            "dev.schedlab.engine.sim..",
            "dev.schedlab.engine.machine..",
            "dev.schedlab.engine.idle..",
            "dev.schedlab.engine.preempt..")
        .because("a lab test reaches the model through Simulation, as the lab does")
        .check(tests);
  }

  @Test
  void engineDoesNotDependOnTheLab() {
    noClasses()
        .that()
        .resideInAPackage("dev.schedlab.engine..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.schedlab.lab..")
        .because("the model takes its own configuration types; the lab converts scenarios")
        .check(production);
  }

  @Test
  void labPackagesAreFreeOfCycles() {
    slices().matching("dev.schedlab.lab.(*)..").should().beFreeOfCycles().check(production);
  }

  @Test
  void enginePackagesAreFreeOfCycles() {
    slices().matching("dev.schedlab.engine.(*)..").should().beFreeOfCycles().check(production);
  }
}
