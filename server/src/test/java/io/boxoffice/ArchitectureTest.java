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

  @Test
  void theDomainIsFreeOfPekko() {
    noClasses()
        .that().haveSimpleNameStartingWith("SeatBook")
        .or().haveSimpleName("RunIndex").or().haveSimpleNameStartingWith("Decision")
        .or().haveSimpleNameStartingWith("SeatMap").or().haveSimpleNameStartingWith("VenueLayout")
        .or().haveSimpleName("StadiumGenerator").or().haveSimpleNameStartingWith("EventDefinition")
        .or().haveSimpleNameStartingWith("PasswordHasher").or().haveSimpleName("IdentityToken")
        .or().haveSimpleNameStartingWith("Barcode").or().haveSimpleName("Hmac")
        .or().haveSimpleNameStartingWith("PaymentGateway").or().haveSimpleNameStartingWith("PaymentSimulator")
        .or().haveSimpleName("ProofOfWork").or().haveSimpleName("MacInput").or().haveSimpleName("TokenBuckets")
        .or().haveSimpleName("PresaleCodes").or().haveSimpleName("Sampler").or().haveSimpleName("BotSettings")
        .or().haveNameMatching("io\\.boxoffice\\.queue\\.(QueueToken|HmacSha256).*")
        .or().haveNameMatching("io\\.boxoffice\\.edge\\.ClientPrefix.*")
        .or().haveSimpleName("Lottery").or().haveSimpleNameStartingWith("AdmissionControl")
        .or().haveSimpleNameStartingWith("OnSaleSchedule").or().haveSimpleNameStartingWith("AdmissionLog")
        .or().resideInAPackage("io.boxoffice.queue.domain..")
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
