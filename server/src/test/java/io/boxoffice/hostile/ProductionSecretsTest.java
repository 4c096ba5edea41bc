package io.boxoffice.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.app.NodeConfig;
import io.boxoffice.app.NodeSecrets;
import io.boxoffice.support.TestNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node refuses to start with secrets an attacker could guess: tokens under 32 characters, the
 * k8s template's REPLACE_ME, or (on PostgreSQL) no keys at all, with a message naming what to set (findings 14, 16).
 */
class ProductionSecretsTest {
  static final String KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

  @TempDir Path dir;

  /** Test settings (every key configured) on PostgreSQL or, with {@code dbUrl} empty, H2 under the temp dir. */
  Config config(String dbUrl, Map<String, String> overrides) {
    return ConfigFactory.parseMap(overrides).withFallback(TestNode.config(dbUrl, dir.toString()));
  }

  static Map<String, String> withoutKeys() {
    Map<String, String> m = new HashMap<>();
    for (NodeSecrets.Secret s : NodeSecrets.SECRETS) m.put(s.path(), "");
    return m;
  }

  static NodeSecrets.Refused refused(Config config) {
    return assertThrows(NodeSecrets.Refused.class, () -> NodeSecrets.resolve(NodeConfig.resolve(config)));
  }

  @Test
  void aPostgresNodeWithoutKeysRefusesToStartAndNamesThem() {
    Config config = config(TestNode.PG_URL, withoutKeys());
    NodeSecrets.Refused e = assertThrows(NodeSecrets.Refused.class,
        () -> Node.start(config, new Node.Options(Clock.systemUTC(), TestNode.payments())));
    for (String env : new String[] {"BOXOFFICE_ADMIN_TOKEN", "BOXOFFICE_GATE_TOKEN", "BOXOFFICE_IDENTITY_KEY",
        "BOXOFFICE_TICKET_KEY", "BOXOFFICE_QUEUE_KEY", "BOXOFFICE_PRESALE_KEY", "BOXOFFICE_POW_KEY"}) {
      assertTrue(e.getMessage().contains(env), "names " + env + ": " + e.getMessage());
    }
    assertFalse(e.getMessage().contains("BOXOFFICE_QUEUE_KEY_PREVIOUS"), "the rotation key is optional");
    assertFalse(Files.exists(dir.resolve(NodeSecrets.FILE)), "nothing made up on PostgreSQL");

    Map<String, String> one = new HashMap<>();
    one.put("boxoffice.secrets.ticket-key", "");
    NodeSecrets.Refused single = refused(config(TestNode.PG_URL, one));
    assertTrue(single.getMessage().contains("BOXOFFICE_TICKET_KEY"), single.getMessage());
    assertFalse(single.getMessage().contains("BOXOFFICE_IDENTITY_KEY"), single.getMessage());
  }

  @Test
  void shortTokensAreRefusedAtStart() {
    NodeSecrets.Refused e = assertThrows(NodeSecrets.Refused.class, () -> Node.start(
        config("", Map.of("boxoffice.secrets.admin-token", "abc")), new Node.Options(Clock.systemUTC(), null)));
    assertTrue(e.getMessage().contains("BOXOFFICE_ADMIN_TOKEN") && e.getMessage().contains("32"), e.getMessage());
    assertFalse(e.getMessage().contains("abc"), "a secret is never repeated in a message");

    String thirtyOne = "a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p";
    assertEquals(31, thirtyOne.length());
    NodeSecrets.Refused gate = refused(config(TestNode.PG_URL, Map.of("boxoffice.secrets.gate-token", thirtyOne)));
    assertTrue(gate.getMessage().contains("BOXOFFICE_GATE_TOKEN"), gate.getMessage());
    Config ok = NodeSecrets.resolve(NodeConfig.resolve(
        config(TestNode.PG_URL, Map.of("boxoffice.secrets.gate-token", thirtyOne + "q"))));
    assertEquals(thirtyOne + "q", ok.getString("boxoffice.secrets.gate-token"));

    NodeSecrets.Refused shortKey = refused(config(TestNode.PG_URL, Map.of("boxoffice.secrets.ticket-key", "c2hvcnQ=")));
    assertTrue(shortKey.getMessage().contains("BOXOFFICE_TICKET_KEY"), shortKey.getMessage());
  }

  @Test
  void placeholdersAreRefusedHoweverLong() {
    for (Map.Entry<String, String> bad : Map.of(
        "boxoffice.secrets.admin-token", "REPLACE_ME",
        "boxoffice.secrets.gate-token", "REPLACE_ME-REPLACE_ME-REPLACE_ME-REPLACE_ME",
        "boxoffice.secrets.identity-key", "REPLACE_ME",
        "boxoffice.bots.pow-key", "changeme-changeme-changeme-changeme-changeme").entrySet()) {
      NodeSecrets.Refused e = refused(config("", Map.of(bad.getKey(), bad.getValue())));
      assertTrue(e.getMessage().contains("placeholder"), bad + ": " + e.getMessage());
    }
  }

  @Test
  void theKubernetesSecretTemplateAsItIsDoesNotStartANode() throws Exception {
    JsonNode template = new ObjectMapper(new YAMLFactory()).readTree(Path.of("k8s/secret-template.yaml").toFile());
    Map<String, String> values = new HashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = template.get("stringData").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      values.put(e.getKey(), e.getValue().asText());
    }
    Map<String, String> overrides = new HashMap<>();
    for (NodeSecrets.Secret s : NodeSecrets.SECRETS) {
      assertTrue(values.containsKey(s.env()), "the template names " + s.env());
      overrides.put(s.path(), values.get(s.env()));
    }
    NodeSecrets.Refused e = refused(config(TestNode.PG_URL, overrides));
    assertTrue(e.getMessage().contains("BOXOFFICE_ADMIN_TOKEN") && e.getMessage().contains("BOXOFFICE_TICKET_KEY"),
        e.getMessage());
  }

  @Test
  void onTheEmbeddedDatabaseKeysAreMadeOnceAndConfiguredValuesWin() throws Exception {
    Config first = NodeSecrets.resolve(NodeConfig.resolve(config("", withoutKeys())));
    Path file = dir.resolve(NodeSecrets.FILE);
    Properties kept = new Properties();
    try (var in = Files.newBufferedReader(file)) {
      kept.load(in);
    }
    for (NodeSecrets.Secret s : NodeSecrets.SECRETS) {
      if (!s.generated()) continue;
      assertEquals(kept.getProperty(s.env()), first.getString(s.path()), s.env() + " kept as used");
    }
    assertTrue(first.getString("boxoffice.secrets.admin-token").length() >= NodeSecrets.MIN_TOKEN_CHARS);

    Map<String, String> gateConfigured = withoutKeys();
    gateConfigured.put("boxoffice.secrets.gate-token", "configured-gate-token-0123456789abcdef");
    Config second = NodeSecrets.resolve(NodeConfig.resolve(config("", gateConfigured)));
    assertEquals("configured-gate-token-0123456789abcdef", second.getString("boxoffice.secrets.gate-token"));
    assertEquals(first.getString("boxoffice.secrets.ticket-key"), second.getString("boxoffice.secrets.ticket-key"));
    assertEquals(first.getString("boxoffice.queue.keys.active"), second.getString("boxoffice.queue.keys.active"));
    assertNotEquals(first.getString("boxoffice.secrets.identity-key"), first.getString("boxoffice.secrets.ticket-key"),
        "one key per purpose");
  }
}
