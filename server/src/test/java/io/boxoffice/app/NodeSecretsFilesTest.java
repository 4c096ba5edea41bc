package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.support.TestNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys, tokens and the database login read from the files a mounted Kubernetes Secret provides ({@code *_FILE}). */
class NodeSecretsFilesTest {
  static final String KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
  static final String TOKEN = "file-token-0123456789abcdefghijklmnop";

  @TempDir Path dir;

  /** PostgreSQL settings with no key, token or login configured at all. */
  Config bare() {
    Map<String, String> empty = new HashMap<>();
    for (NodeSecrets.Secret s : NodeSecrets.SECRETS) empty.put(s.path(), "");
    empty.put(NodeConfig.DB + ".db.user", "");
    empty.put(NodeConfig.DB + ".db.password", "");
    return NodeConfig.resolve(ConfigFactory.parseMap(empty).withFallback(TestNode.config(TestNode.PG_URL, dir.toString())));
  }

  /** One file per variable, as a Secret volume holds them (kubectl --from-file keeps a trailing newline). */
  Map<String, String> mounted(Map<String, String> overrides) throws Exception {
    Map<String, String> env = new HashMap<>();
    for (String variable : NodeSecrets.FILE_VARIABLES.keySet()) {
      NodeSecrets.Secret secret = NodeSecrets.SECRETS.stream().filter(s -> s.env().equals(variable)).findFirst().orElse(null);
      String value = secret == null ? "db-" + variable.toLowerCase() : secret.token() ? TOKEN : KEY;
      Path file = dir.resolve(variable);
      Files.writeString(file, overrides.getOrDefault(variable, value) + "\n");
      env.put(variable + "_FILE", file.toString());
    }
    return env;
  }

  @Test
  void everyKeyTokenAndTheDatabaseLoginComeFromTheirFiles() throws Exception {
    Config config = NodeSecrets.resolve(bare(), mounted(Map.of()));
    assertEquals(TOKEN, config.getString("boxoffice.secrets.admin-token"));
    assertEquals(KEY, config.getString("boxoffice.queue.keys.active"));
    assertEquals(KEY, config.getString("boxoffice.bots.pow-key"));
    assertEquals("db-boxoffice_db_user", config.getString(NodeConfig.DB + ".db.user"));
    assertEquals("db-boxoffice_db_password", config.getString(NodeConfig.DB + ".db.password"));
    assertEquals("db-boxoffice_stripe_secret_key", config.getString("boxoffice.payments.stripe.secret-key"), "Stripe's keys too");
    assertEquals("db-boxoffice_stripe_webhook_secret", config.getString("boxoffice.payments.stripe.webhook-secret"));
  }

  @Test
  void withoutTheFilesAPostgresNodeStillRefusesToStart() {
    NodeSecrets.Refused e = assertThrows(NodeSecrets.Refused.class, () -> NodeSecrets.resolve(bare(), Map.of()));
    assertTrue(e.getMessage().contains("BOXOFFICE_ADMIN_TOKEN"), e.getMessage());
  }

  @Test
  void aPlaceholderInAFileIsRefusedLikeOneInTheEnvironment() throws Exception {
    Map<String, String> env = mounted(Map.of("BOXOFFICE_TICKET_KEY", "REPLACE_ME"));
    NodeSecrets.Refused e = assertThrows(NodeSecrets.Refused.class, () -> NodeSecrets.resolve(bare(), env));
    assertTrue(e.getMessage().contains("BOXOFFICE_TICKET_KEY") && e.getMessage().contains("placeholder"), e.getMessage());
  }

  @Test
  void aFileThatCannotBeReadIsRefusedByName() throws Exception {
    for (String bad : new String[] {dir.resolve("missing").toString(), dir.toString(), "/tmp/a\u0000b"}) {
      Map<String, String> env = mounted(Map.of());
      env.put("BOXOFFICE_GATE_TOKEN_FILE", bad);
      NodeSecrets.Refused e = assertThrows(NodeSecrets.Refused.class, () -> NodeSecrets.resolve(bare(), env), bad);
      assertTrue(e.getMessage().contains("BOXOFFICE_GATE_TOKEN_FILE"), e.getMessage());
    }
  }
}
