package io.boxoffice.web;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.boxoffice.app.Node;
import io.boxoffice.support.Chromium;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.NetworkLog;
import io.boxoffice.support.TestNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * What a waiting fan's page costs the origin, counted in a real Chromium from its own network
 * log: a fan far back behind a slow line waits for over a minute, and every request the page
 * sends in that minute is sorted into public ones (the page, its assets, the manifest, the
 * summary: the same bytes for everyone, which a CDN answers) and private ones (the fan's own
 * status, tickets, session, cart: only the origin can answer them).
 */
class WaitingRoomCostBrowserTest {
  @RegisterExtension
  static final Chromium browser = new Chromium();

  /** Fans in line ahead of the browser's fan. */
  static final int AHEAD = 60;
  /** How long the page is watched while it waits. */
  static final Duration WINDOW = Duration.ofSeconds(65);
  /** The target: private origin requests per waiting fan per minute (issue 32). */
  static final double PRIVATE_PER_MINUTE_TARGET = 0.2;

  static Node node;
  static String base;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(Clock.systemUTC(), TestNode.payments());
    base = "http://127.0.0.1:" + node.httpPort();
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  @AfterEach
  void closeWindows() {
    browser.close();
  }

  /** Public requests: the same answer for every fan, cacheable at the edge. Everything else is private. */
  static boolean isPublic(NetworkLog.Request r) {
    String path = r.path().contains("?") ? r.path().substring(0, r.path().indexOf('?')) : r.path();
    return r.method().equals("GET") && (path.startsWith("/events/") || path.startsWith("/static/") || path.equals("/favicon.ico")
        || path.endsWith("/queue/manifest") || path.endsWith("/summary"));
  }

  static String route(NetworkLog.Request r) {
    String path = r.path().contains("?") ? r.path().substring(0, r.path().indexOf('?')) : r.path();
    return r.method() + " " + path.replaceAll("^/api/events/[^/]+", "/api/events/{id}").replaceAll("^/events/[^/]+", "/events/{id}");
  }

  @Test
  void aFanFarBackInASlowLineCostsTheOriginNoPrivateRequestWhileWaitingAndIsLetInWhenTheLineReachesIt() {
    String e = FanPagesBrowserTest.event(node, FanPagesBrowserTest.venue(node, 200), "{\"lobbyOpensAt\":\"" + Instant.now()
        + "\",\"startsAt\":\"" + Instant.now() + "\",\"admissionPerMinute\":1,\"maxActiveShoppers\":1}");
    // The crowd ahead, over HTTP: each joins after the start and takes the next place.
    for (int i = 0; i < AHEAD; i++) {
      HttpFan ahead = new HttpFan(node.httpPort());
      ahead.signUp(FanPagesBrowserTest.email());
      HttpFan.Reply joined = FanPagesBrowserTest.setUp(() -> ahead.send("POST", "/api/events/" + e + "/queue", "{}"));
      assertEquals(200, joined.status(), joined.body());
    }

    ChromeDriver d = browser.open(1280, 900, true);
    d.get(base + "/events/" + e);
    awaitVisible(d, "auth");
    d.findElement(By.id("show-signup")).click();
    d.findElement(By.id("signup-email")).sendKeys(FanPagesBrowserTest.email());
    d.findElement(By.id("signup-password")).sendKeys("correct horse battery" + Keys.ENTER);
    awaitVisible(d, "join-form");
    d.findElement(By.id("join-button")).click();
    await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
        .until(() -> d.findElement(By.id("state-text")).getText().contains("You are in line"));
    HttpFan me = new HttpFan(node.httpPort()).withCookie(d.manage().getCookieNamed("bo_id").getValue())
        .withQueueCookie(e, d.manage().getCookieNamed("bo_q_" + e).getValue());
    awaitRightNumberAhead(d, me, e);

    // The minute of waiting: whatever the page sends from now on is counted.
    NetworkLog.drain(d, base);
    long from = System.nanoTime();
    await().during(WINDOW).atMost(WINDOW.plusSeconds(15)).pollInterval(Duration.ofSeconds(1))
        .until(() -> d.findElement(By.id("state-text")).getText().contains("You are in line"));
    List<NetworkLog.Request> sent = NetworkLog.drain(d, base);
    double minutes = (System.nanoTime() - from) / 60e9;
    Map<String, Integer> byRoute = new TreeMap<>();
    for (NetworkLog.Request r : sent) byRoute.merge((isPublic(r) ? "public  " : "private ") + route(r), 1, Integer::sum);
    long privateRequests = sent.stream().filter(r -> !isPublic(r)).count();
    long publicRequests = sent.size() - privateRequests;
    System.out.printf("waiting-fan origin requests over %.2f min, %d ahead: private %.2f/min, public %.2f/min %s%n",
        minutes, AHEAD, privateRequests / minutes, publicRequests / minutes, byRoute);
    // Still the right number ahead, worked out by the page from the manifest alone.
    awaitRightNumberAhead(d, me, e);
    assertTrue(privateRequests / minutes <= PRIVATE_PER_MINUTE_TARGET,
        "private origin requests per waiting fan per minute: " + privateRequests / minutes + " " + byRoute);
    assertTrue(publicRequests > 0, "the page kept polling the manifest: " + byRoute);

    // The line speeds up: the page sees its place reached in the manifest and opens the shop.
    HttpFan.Reply faster = new HttpFan(node.httpPort()).admin("PATCH", "/admin/events/" + e + "/onsale",
        "{\"admissionPerMinute\":6000,\"maxActiveShoppers\":5000}");
    assertEquals(200, faster.status(), faster.body());
    d.executeScript("window.sameDocument = 1");
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
        .until(() -> d.findElement(By.id("shop")).isDisplayed());
    assertEquals(1L, d.executeScript("return window.sameDocument"), "the shop opened without a reload");
    await().atMost(Duration.ofSeconds(15)).until(() -> ((Number) d.executeScript("return window.boxoffice.seats()")).intValue() == 200);
    Chromium.screenshot(d, "fan-20-admitted-after-a-long-wait-desktop");
  }

  @Test
  void aFanInTheLobbyAsksForItsPlaceOnceAtTheLotteryAndNothingPrivateWhileWaitingForIt() {
    List<HttpFan> crowd = new java.util.ArrayList<>();
    for (int i = 0; i < 20; i++) {
      HttpFan fan = new HttpFan(node.httpPort());
      fan.signUp(FanPagesBrowserTest.email());
      crowd.add(fan);
    }
    String venue = FanPagesBrowserTest.venue(node, 200);
    Instant start = Instant.now().plusSeconds(45);
    String e = FanPagesBrowserTest.event(node, venue, "{\"lobbyOpensAt\":\"" + Instant.now()
        + "\",\"startsAt\":\"" + start + "\",\"admissionPerMinute\":1,\"maxActiveShoppers\":1}");
    ChromeDriver d = browser.open(1280, 900, true);
    d.get(base + "/events/" + e);
    awaitVisible(d, "auth");
    d.findElement(By.id("show-signup")).click();
    d.findElement(By.id("signup-email")).sendKeys(FanPagesBrowserTest.email());
    d.findElement(By.id("signup-password")).sendKeys("correct horse battery" + Keys.ENTER);
    awaitVisible(d, "join-form");
    d.findElement(By.id("join-button")).click();
    await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
        .until(() -> d.findElement(By.id("state-text")).getText().contains("lobby"));
    // The others join the lobby too (before or after this fan makes no difference: the lottery draws).
    for (HttpFan fan : crowd) {
      HttpFan.Reply joined = FanPagesBrowserTest.setUp(() -> fan.send("POST", "/api/events/" + e + "/queue", "{}"));
      assertEquals(200, joined.status(), joined.body());
    }
    NetworkLog.drain(d, base);

    // The draw: the page learns it from the manifest and asks for its place, once.
    await().atMost(Duration.between(Instant.now(), start).plusSeconds(30)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
        .until(() -> d.findElement(By.id("position-row")).isDisplayed() || d.findElement(By.id("shop")).isDisplayed());
    await().during(Duration.ofSeconds(30)).atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofSeconds(1))
        .until(() -> d.findElement(By.id("position-row")).isDisplayed() || d.findElement(By.id("shop")).isDisplayed());
    List<NetworkLog.Request> sent = NetworkLog.drain(d, base);
    Map<String, Integer> byRoute = new TreeMap<>();
    for (NetworkLog.Request r : sent) byRoute.merge((isPublic(r) ? "public  " : "private ") + route(r), 1, Integer::sum);
    System.out.println("a lobby fan from its join to 30 s after the draw: " + byRoute);
    int statusAsks = byRoute.getOrDefault("private GET /api/events/{id}/queue/status", 0);
    assertTrue(statusAsks >= 1 && statusAsks <= 2, "the status asked at the draw, once: " + byRoute);
    if (!d.findElement(By.id("shop")).isDisplayed()) {
      // Still waiting: nothing private but that one ask, and the place the origin gave.
      assertEquals(statusAsks, sent.stream().filter(r -> !isPublic(r)).count(), "nothing else private: " + byRoute);
      HttpFan me = new HttpFan(node.httpPort()).withCookie(d.manage().getCookieNamed("bo_id").getValue())
          .withQueueCookie(e, d.manage().getCookieNamed("bo_q_" + e).getValue());
      long place = me.send("GET", "/api/events/" + e + "/queue/status", null).json().get("position").asLong();
      assertEquals(String.valueOf(place), d.findElement(By.id("position")).getText().replace(",", ""));
    }
  }

  static void awaitVisible(ChromeDriver d, String id) {
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
        .until(() -> d.findElement(By.id(id)).isDisplayed());
  }

  /** The page shows the people between the line's front and the fan's place, as the fan's own status tells them. */
  static void awaitRightNumberAhead(ChromeDriver d, HttpFan me, String e) {
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
      JsonNode st = me.send("GET", "/api/events/" + e + "/queue/status", null).json();
      long people = st.get("position").asLong() - st.get("admittedUpTo").asLong() - 1;
      String expected = people == 0 ? "Nobody is ahead of you." : people == 1 ? "1 person is ahead of you."
          : people + " people are ahead of you.";
      return people >= AHEAD - 5 && d.findElement(By.id("ahead")).getText().equals(expected);
    });
  }
}
