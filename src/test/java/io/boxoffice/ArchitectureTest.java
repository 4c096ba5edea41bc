package io.boxoffice;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.boxoffice.common.CborSerializable;
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
        .or().haveSimpleNameStartingWith("OnSaleSchedule")
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
}
