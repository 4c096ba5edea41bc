package io.boxoffice;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.boxoffice.common.CborSerializable;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rules live apart from plumbing: the deciding classes know nothing of Pekko, and nothing uses Java serialization. */
class ArchitectureTest {
  static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.boxoffice");

  /** Rules that live outside a {@code domain} package (shared helpers of the edge, common and payment) are Pekko-free too. */
  @Test
  void theRulesOutsideDomainPackagesAreFreeOfPekko() {
    noClasses()
        .that().haveSimpleNameStartingWith("PasswordHasher").or().haveSimpleName("IdentityToken")
        .or().haveSimpleName("Hmac").or().haveSimpleName("TokenBuckets")
        .or().haveSimpleNameStartingWith("PaymentGateway").or().haveSimpleNameStartingWith("PaymentSimulator")
        .or().haveNameMatching("io\\.boxoffice\\.edge\\.ClientPrefix.*")
        .should().dependOnClassesThat().resideInAnyPackage("org.apache.pekko..", "scala..")
        .check(MAIN);
  }

  /**
   * A feature's {@code domain} package holds its rules and nothing else: no actor, persistence
   * or Scala type reaches it, so it runs and is tested without an actor system.
   */
  @Test
  void domainPackagesAreFreeOfPekko() {
    noClasses().that().resideInAPackage("io.boxoffice..domain..")
        .should().dependOnClassesThat().resideInAnyPackage("org.apache.pekko..", "scala..")
        .check(MAIN);
  }

  /**
   * Each package below {@code io.boxoffice} is a slice; none may reach itself through the others.
   * A lower package that needs something of a higher one declares a port (an interface it owns,
   * such as {@code inventory.QueuePassCheck} or {@code tickets.Orders}) that {@code app.Node} wires.
   */
  @Test
  void theFeaturePackagesImportEachOtherWithoutCycles() {
    slices().matching("io.boxoffice.(*)..").should().beFreeOfCycles().check(MAIN);
  }

  /**
   * Inside a feature too: its {@code domain}, its entity (the feature's own package) and its
   * {@code http} never reach themselves through each other, so a domain never leans on its entity.
   */
  @Test
  void theSubPackagesImportEachOtherWithoutCycles() {
    slices().matching("io.boxoffice.(**)").should().beFreeOfCycles().check(MAIN);
  }

  /**
   * Routes and their JSON are the top of a feature: no domain, entity or other non-HTTP code
   * imports an {@code http} package; only the composition root ({@code app}) wires routes.
   */
  @Test
  void onlyTheCompositionRootImportsHttpPackages() {
    noClasses().that().resideOutsideOfPackages("io.boxoffice..http..", "io.boxoffice.app..")
        .should().dependOnClassesThat().resideInAPackage("io.boxoffice..http..")
        .check(MAIN);
  }

  /** A domain package imports no entity, route or wiring of any feature: only other domain packages, common and the JDK's kin. */
  @Test
  void domainPackagesImportOnlyDomainPackagesAndCommon() {
    noClasses().that().resideInAPackage("io.boxoffice..domain..")
        .should().dependOnClassesThat(com.tngtech.archunit.base.DescribedPredicate.describe(
            "an io.boxoffice class outside a domain package and common",
            (com.tngtech.archunit.core.domain.JavaClass c) -> c.getPackageName().startsWith("io.boxoffice.")
                && !c.getPackageName().contains(".domain") && !c.getPackageName().startsWith("io.boxoffice.common")))
        .check(MAIN);
  }

  /** The cycle rule sees only classes inside a slice: nothing may hide in the root package. */
  @Test
  void everyClassLivesInAPackageOfItsOwn() {
    noClasses().should().resideInAPackage("io.boxoffice").check(MAIN);
  }

  @Test
  void routesDoNotReachIntoEntityInternals() {
    noClasses().that().haveSimpleNameEndingWith("Routes")
        .should().dependOnClassesThat().haveSimpleName("SeatBook")
        .check(MAIN);
  }

  @Test
  void messagesAreNeverJavaSerializable() {
    classes().that().implement(CborSerializable.class)
        .should().notImplement(java.io.Serializable.class)
        .check(MAIN);
  }

  /**
   * The floors of the house, lowest first: a package imports only packages on lower floors
   * (never one beside it or above it), so a feature that needs something of a higher one owns
   * a port for it and {@code app} wires it. This is today's graph; moving a package to another
   * floor is a decision to make here, in the open.
   */
  static final List<List<String>> FLOORS = List.of(
      List.of("common"),
      List.of("venue", "payment", "edge"),
      List.of("inventory"),
      List.of("tickets", "accounts"),
      List.of("cart"),
      List.of("queue"),
      List.of("admin"),
      List.of("app"));

  @Test
  void packagesImportOnlyPackagesOnLowerFloors() {
    for (int floor = 0; floor < FLOORS.size(); floor++) {
      List<String> notBelow = FLOORS.subList(floor, FLOORS.size()).stream().flatMap(List::stream).toList();
      for (String pkg : FLOORS.get(floor)) {
        String[] forbidden = notBelow.stream().filter(p -> !p.equals(pkg)).map(p -> "io.boxoffice." + p + "..")
            .toArray(String[]::new);
        if (forbidden.length == 0) continue;
        noClasses().that().resideInAPackage("io.boxoffice." + pkg + "..")
            .should().dependOnClassesThat().resideInAnyPackage(forbidden)
            .because(pkg + " stands on floor " + floor + " and may import only lower floors")
            .check(MAIN);
      }
    }
  }

  @Test
  void everyPackageHasAFloor() {
    java.util.Set<String> placed = new java.util.HashSet<>();
    FLOORS.forEach(placed::addAll);
    for (var c : MAIN) {
      String rest = c.getPackageName().substring("io.boxoffice.".length());
      String top = rest.contains(".") ? rest.substring(0, rest.indexOf('.')) : rest;
      org.junit.jupiter.api.Assertions.assertTrue(placed.contains(top), c.getName() + " is in a package without a floor");
    }
  }
}
