package io.boxoffice.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.app.Node;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Issue 8, finding 11: login CSRF and cross-site state changes are 403; bodies must be application/json (415). */
class CsrfAndContentTypeTest {
  static final String PASSWORD = "correct horse battery";
  static Node node;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(new MutableClock(Instant.parse("2026-12-01T10:00:00Z")), TestNode.payments());
  }

  @AfterAll
  static void stop() {
    if (node != null) node.stop();
  }

  HttpFan fan() {
    return new HttpFan(node.httpPort());
  }

  String self() {
    return "http://127.0.0.1:" + node.httpPort();
  }

  static String email() {
    return "csrf-" + UUID.randomUUID() + "@example.com";
  }

  @Test
  void signInAndSignUpFromAForeignOriginAre403AndChangeNothing() {
    String email = email();
    String body = Hostile.credentials(email, PASSWORD);
    HttpFan.Reply up = fan().send("POST", "/api/accounts", body, "Origin", "https://evil.example");
    Hostile.refused(up, 403, "forbidden");
    Hostile.refused(fan().send("POST", "/api/session", body), 401, "unauthenticated"); // not created
    assertEquals(201, fan().send("POST", "/api/accounts", body, "Origin", self()).status());

    HttpFan.Reply in = fan().send("POST", "/api/session", body, "Origin", "https://evil.example");
    Hostile.refused(in, 403, "forbidden");
    assertTrue(in.headers().firstValue("Set-Cookie").isEmpty(), "no session for a cross-site sign-in");
    Hostile.refused(fan().send("POST", "/api/session", body, "Origin", "http://127.0.0.1:" + (node.httpPort() + 1)), 403, "forbidden");
    Hostile.refused(fan().send("POST", "/api/session", body, "Origin", "null"), 403, "forbidden");
    Hostile.refused(fan().send("POST", "/api/session", body, "Sec-Fetch-Site", "cross-site"), 403, "forbidden");

    assertEquals(200, fan().send("POST", "/api/session", body, "Origin", self(), "Sec-Fetch-Site", "same-origin").status());
    assertEquals(200, fan().send("POST", "/api/session", body).status(), "no Origin (curl, a storefront server) is fine");
  }

  @Test
  void stateChangingCallsWithTheSessionCookieRefuseAForeignOrigin() {
    HttpFan fan = fan();
    fan.signUp(email());
    Hostile.refused(fan.send("POST", "/api/events/ev-x/cart/holds", "{\"seats\":[\"A-1-1\"]}", "Origin", "https://evil.example"),
        403, "forbidden");
    Hostile.refused(fan.send("POST", "/api/events/ev-x/queue", "{}", "Sec-Fetch-Site", "cross-site"), 403, "forbidden");
    Hostile.refused(fan.send("DELETE", "/api/session", null, "Origin", "https://evil.example"), 403, "forbidden");
    // Reading is not changing: a cross-site GET with the cookie goes through (SameSite=Lax decides what browsers send).
    assertEquals(200, fan.send("GET", "/api/me/tickets", null, "Origin", "https://evil.example").status());
    // Signing out from the site itself: 204 and the cookie cleared with the attributes it was set with.
    HttpFan.Reply out = fan.send("DELETE", "/api/session", null);
    assertEquals(204, out.status(), out.body());
    String cleared = out.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_id=")).findFirst().orElseThrow();
    assertTrue(cleared.startsWith("bo_id=;") && cleared.contains("Max-Age=0") && cleared.contains("HttpOnly"), cleared);
  }

  @Test
  void aBodyThatIsNotJsonIs415AndSignsNobodyIn() throws Exception {
    String email = email();
    String body = Hostile.credentials(email, PASSWORD);
    assertEquals(201, fan().send("POST", "/api/accounts", body).status());
    for (String type : new String[] {"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"}) {
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(self() + "/api/session"))
          .header("Content-Type", type).POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
      Hostile.refused(new HttpFan.Reply(r.statusCode(), r.body(), r.headers()), 415, "unsupported_media_type");
      assertTrue(r.headers().firstValue("Set-Cookie").isEmpty());
    }
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(self() + "/api/accounts"))
        .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(Hostile.credentials(email(), PASSWORD))).build(),
        HttpResponse.BodyHandlers.ofString());
    Hostile.refused(new HttpFan.Reply(r.statusCode(), r.body(), r.headers()), 415, "unsupported_media_type");
    HttpResponse<String> ok = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(self() + "/api/session"))
        .header("Content-Type", "application/json; charset=utf-8").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, ok.statusCode(), ok.body());
  }
}
