package io.boxoffice.hostile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.app.NodeSecrets;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded default with no key configured, restarted on the same data dir: the fan's
 * session, a ticket sold before and a presale code sent out before all still work (finding 16,
 * invariant 12), and the keys file is owner-only.
 */
class KeysSurviveRestartTest {
  @TempDir Path dir;

  Node start() throws Exception {
    Map<String, String> noKeys = new HashMap<>();
    for (NodeSecrets.Secret s : NodeSecrets.SECRETS) noKeys.put(s.path(), "");
    Config config = ConfigFactory.parseMap(noKeys).withFallback(TestNode.config("", dir.toString()));
    return Node.start(config, new Node.Options(Clock.systemUTC(), null));
  }

  Properties keys() throws Exception {
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(dir.resolve(NodeSecrets.FILE))) {
      p.load(in);
    }
    return p;
  }

  @Test
  void sessionsTicketsAndPresaleCodesSurviveARestart() throws Exception {
    String cookie;
    List<String> barcodes;
    String eventId;
    String presaleEvent;
    String code;
    Node node = start();
    try {
      Sales sales = new Sales(node.httpPort(), keys().getProperty("BOXOFFICE_ADMIN_TOKEN"));
      String venue = sales.venue();
      eventId = sales.openEvent(venue);
      HttpFan fan = sales.fan();
      cookie = fan.cookie();
      barcodes = Sales.buyTwo(fan, eventId);

      presaleEvent = sales.openEvent(venue);
      HttpFan.Reply put = sales.admin("PUT", "/admin/events/" + presaleEvent + "/onsale", "{\"lobbyOpensAt\":\""
          + Instant.now() + "\",\"startsAt\":\"" + Instant.now().plusSeconds(3600)
          + "\",\"admissionPerMinute\":60,\"maxActiveShoppers\":100,\"presale\":true,\"powBits\":0}");
      assertEquals(200, put.status(), put.body());
      assertEquals(201, fan.send("POST", "/api/events/" + presaleEvent + "/presale/registrations", null).status());
      HttpFan.Reply invitations = sales.admin("POST", "/admin/events/" + presaleEvent + "/presale/invitations", "{\"count\":5}");
      assertEquals(200, invitations.status(), invitations.body());
      code = invitations.json().get("invitations").get(0).get("code").asText();
    } finally {
      node.stop();
    }
    Path file = dir.resolve(NodeSecrets.FILE);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)), "owner-only keys file");
    byte[] before = Files.readAllBytes(file);

    Node again = start();
    try {
      assertArrayEquals(before, Files.readAllBytes(file), "the keys were read back, not made again");
      HttpFan fan = new HttpFan(again.httpPort()).withCookie(cookie);
      HttpFan.Reply mine = fan.send("GET", "/api/me/tickets", null);
      assertEquals(200, mine.status(), "the session cookie still signs the fan in: " + mine.body());
      assertEquals(2, mine.json().get("tickets").size());

      String gate = keys().getProperty("BOXOFFICE_GATE_TOKEN");
      HttpFan.Reply admit = new HttpFan(again.httpPort()).send("POST", "/gate/scan",
          "{\"barcode\":\"" + barcodes.get(0) + "\",\"eventId\":\"" + eventId + "\"}", "Authorization", "Bearer " + gate);
      assertEquals(200, admit.status(), "a ticket sold before the restart admits: " + admit.body());
      assertEquals("admit", admit.json().get("result").asText());

      String forged = code.substring(0, code.length() - 1) + (code.endsWith("A") ? "B" : "A");
      HttpFan.Reply badCode = fan.send("POST", "/api/events/" + presaleEvent + "/queue", "{\"code\":\"" + forged + "\"}");
      assertEquals("bad_code", badCode.error(), "codes are still checked: " + badCode.body());
      HttpFan.Reply join = fan.send("POST", "/api/events/" + presaleEvent + "/queue", "{\"code\":\"" + code + "\"}");
      assertEquals(200, join.status(), "a presale code sent out before the restart still lets its fan in: " + join.body());
    } finally {
      again.stop();
    }
  }
}
