package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.support.TestNode;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * The processor a node starts with: the simulator is refused in production (its tok_visa sells
 * real tickets unpaid) unless a drill allows it by name, and Stripe is refused without its keys.
 */
class PaymentProviderTest {
  static PaymentsModule.Settings settings(String overrides) {
    return PaymentsModule.Settings.fromConfig(NodeConfig.resolve(ConfigFactory.parseString(overrides).withFallback(ConfigFactory.load())));
  }

  @Test
  void aNodeInProductionRefusesTheSimulator() {
    NodeSecrets.Refused e = assertThrows(NodeSecrets.Refused.class,
        () -> settings("boxoffice.profile = production").checked());
    assertTrue(e.getMessage().contains("BOXOFFICE_PAYMENTS_PROVIDER=stripe"), e.getMessage());
    assertThrows(NodeSecrets.Refused.class, () -> settings("boxoffice.discovery = kubernetes").checked(),
        "a node bootstrapping through the Kubernetes API is in production");
  }

  @Test
  void aDrillMayRunTheSimulatorInProductionWhenItSaysSo() {
    assertDoesNotThrow(() -> settings("boxoffice.profile = production\nboxoffice.payments.allow-simulator-in-production = on").checked());
  }

  @Test
  void outsideProductionTheSimulatorStarts() {
    assertFalse(settings("").production());
    assertDoesNotThrow(() -> settings("").checked());
  }

  @Test
  void stripeWithoutItsKeysOrWithPlaceholdersIsRefused() {
    assertThrows(NodeSecrets.Refused.class, () -> settings("boxoffice.payments.provider = stripe").checked());
    assertThrows(NodeSecrets.Refused.class, () -> settings("""
        boxoffice.payments.provider = stripe
        boxoffice.payments.stripe { secret-key = REPLACE_ME, webhook-secret = REPLACE_ME }
        """).checked());
    assertThrows(NodeSecrets.Refused.class, () -> settings("""
        boxoffice.payments.provider = stripe
        boxoffice.payments.stripe { secret-key = pk_live_publishable, webhook-secret = whsec_x }
        """).checked(), "a publishable key is not a secret key");
    assertThrows(NodeSecrets.Refused.class, () -> settings("boxoffice.payments.provider = paypal"));
    assertDoesNotThrow(() -> settings("""
        boxoffice.profile = production
        boxoffice.payments.provider = stripe
        boxoffice.payments.stripe { secret-key = sk_live_abc, webhook-secret = whsec_def }
        """).checked());
  }

  @Test
  void aWholeNodeInProductionWithTheSimulatorDoesNotStart() {
    Config config = ConfigFactory.parseString("boxoffice.profile = production")
        .withFallback(TestNode.config(TestNode.PG_URL, "target/unused"));
    NodeSecrets.Refused e = assertThrows(NodeSecrets.Refused.class,
        () -> io.boxoffice.app.Node.start(config, new io.boxoffice.app.Node.Options(Clock.systemUTC(), null)));
    assertTrue(e.getMessage().contains("simulator"), e.getMessage());
  }
}
