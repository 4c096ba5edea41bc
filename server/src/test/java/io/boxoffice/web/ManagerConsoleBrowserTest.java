package io.boxoffice.web;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.app.Node;
import io.boxoffice.support.Chromium;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * A manager in Chromium: enters the token once, creates a venue and an event, schedules the
 * on-sale, watches the live dashboard count the seats a few fans buy over HTTP, then pauses
 * and resumes the sale from the controls beside it; and the same console at 390 px.
 */
class ManagerConsoleBrowserTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @RegisterExtension
  static final Chromium browser = new Chromium();

  static Node node;
  static String base;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(Clock.systemUTC(), TestNode.payments());
    base = "http://127.0.0.1:" + node.httpPort();
  }

  @AfterEach
  void closeWindows() {
    browser.close();
  }

  @AfterAll
  static void stop() {
    node.stop();
  }

  @Test
  void aManagerCreatesSchedulesWatchesPausesAndResumes() {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String venueId = "cv-" + suffix;
    String eventId = "ce-" + suffix;
    ChromeDriver page = browser.desktop();
    signIn(page);

    page.findElement(By.cssSelector("#venue-form")).findElement(By.xpath("..")).findElement(By.tagName("summary")).click();
    page.findElement(By.id("v-id")).sendKeys(venueId);
    page.findElement(By.id("v-name")).sendKeys("Console Hall");
    WebElement seats = page.findElement(By.id("v-seats"));
    seats.clear();
    seats.sendKeys("200");
    page.findElement(By.cssSelector("#venue-form button[type=submit]")).click();
    awaitStatus(page, "Venue " + venueId + " created with 200 seats.");
    await().atMost(WAIT).until(() -> page.findElement(By.id("venues")).getText().contains("Console Hall"));

    page.findElement(By.cssSelector("#event-form")).findElement(By.xpath("..")).findElement(By.tagName("summary")).click();
    page.findElement(By.id("e-id")).sendKeys(eventId);
    page.findElement(By.id("e-name")).sendKeys("Console <b>Night</b>");
    assertEquals(venueId, page.findElement(By.id("e-venue")).getAttribute("value"), "the new venue is chosen");
    page.findElement(By.cssSelector("#event-form button[type=submit]")).click();
    awaitStatus(page, "Event " + eventId + " created (closed).");
    // The dashboard of the new event is live at once; names are shown as text, never as markup.
    awaitText(page, "live-state", "closed");
    assertTrue(page.findElement(By.id("event-title")).getText().contains("Console <b>Night</b>"));

    // Schedule: the lobby now, the sale now (a past time means now), ten fans a second.
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString().replace("Z", "");
    page.executeScript("document.getElementById('o-lobby').value = arguments[0];"
        + "document.getElementById('o-start').value = arguments[0];", now);
    WebElement rate = page.findElement(By.id("o-rate"));
    rate.clear();
    rate.sendKeys("600");
    page.findElement(By.cssSelector("#onsale-form button[type=submit]")).click();
    await().atMost(WAIT).until(() -> page.findElement(By.id("live-state")).getText().equals("waiting"));
    Chromium.screenshot(page, "console-desktop-scheduled");

    // A few fans buy two seats each over HTTP; the dashboard counts them.
    List<HttpFan> fans = new ArrayList<>();
    for (int i = 0; i < 3; i++) fans.add(buyTwo(eventId));
    awaitText(page, "f-sold", "6");
    awaitText(page, "f-orders", "3");
    await().atMost(WAIT).until(() -> !page.findElement(By.id("spark-sales")).getAttribute("points").isEmpty());
    Chromium.screenshot(page, "console-desktop-live");
    page.executeScript("window.scrollTo(0, 0);");
    Chromium.screenshot(page, "console-desktop-top");

    page.findElement(By.id("pause")).click();
    awaitText(page, "live-state", "paused");
    await().atMost(WAIT).until(() -> rowState(page, eventId).equals("paused"));
    assertTrue(page.findElement(By.id("status")).getText().contains("Paused"));
    assertTrue(page.findElement(By.id("pause")).getAttribute("disabled") != null, "pause is off while paused");
    Chromium.screenshot(page, "console-desktop-paused");
    page.findElement(By.id("resume")).click();
    await().atMost(WAIT).until(() -> page.findElement(By.id("live-state")).getText().equals("waiting"));
    await().atMost(WAIT).until(() -> rowState(page, eventId).equals("waiting"));

    // The cap from the controls: the stream shows it as the field's hint.
    WebElement cap = page.findElement(By.id("r-cap"));
    cap.sendKeys("25");
    cap.sendKeys(Keys.ENTER);
    await().atMost(WAIT).until(() -> "25".equals(page.findElement(By.id("r-cap")).getAttribute("placeholder")));

    // A phone: the same console, one column, nothing wider than the screen.
    ChromeDriver phone = browser.phone();
    signIn(phone);
    // This event's row (the shared database holds other runs' events of the same name), its button named by the event.
    By manage = By.cssSelector("#events tr[data-event-id='" + eventId + "'] button[aria-label='Manage Console <b>Night</b>']");
    await().atMost(WAIT).until(() -> !phone.findElements(manage).isEmpty());
    phone.findElement(manage).click();
    awaitText(phone, "f-sold", "6");
    // The schedule form shows the on-sale as it stands (the cap set above, the start scheduled), ready to edit.
    await().atMost(WAIT).until(() -> "25".equals(phone.findElement(By.id("o-cap")).getAttribute("value")));
    // A datetime-local field leaves out seconds that are 0 ("11:39" for 11:39:00): compare the times, not the strings.
    // A start in the past means "now" on the server's clock, a moment after the page's: the form
    // shows the time asked for or that moment (CI once saw it one second later), never earlier.
    java.time.LocalDateTime asked = java.time.LocalDateTime.parse(now);
    java.time.LocalDateTime shown = java.time.LocalDateTime.parse(phone.findElement(By.id("o-start")).getAttribute("value"));
    assertTrue(!shown.isBefore(asked) && !shown.isAfter(asked.plusSeconds(10)), "the scheduled start " + asked + ", shown " + shown);
    long width = (Long) phone.executeScript("return document.documentElement.scrollWidth;");
    assertTrue(width <= 390, "the console fits 390 px: " + width);
    Chromium.screenshot(phone, "console-phone-live");
    phone.executeScript("window.scrollTo(0, 0);");
    Chromium.screenshot(phone, "console-phone-top");
  }

  @Test
  void onAPhoneIdsAreNeverBrokenInsideLongOnesEndInAnEllipsisAndKeepTheWholeId() {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String venueId = "cv-" + suffix;
    String shortId = "ce-" + suffix;
    String longId = "ce-" + suffix + "-summer-open-air-festival-main-stage-late";
    HttpFan admin = new HttpFan(node.httpPort());
    assertEquals(201, admin.admin("POST", "/admin/venues", "{\"venueId\":\"" + venueId
        + "\",\"name\":\"Hall\",\"generate\":{\"layout\":\"stadium\",\"seats\":20}}").status());
    for (String id : List.of(shortId, longId)) {
      HttpFan.Reply made = admin.admin("POST", "/admin/events", "{\"eventId\":\"" + id + "\",\"venueId\":\"" + venueId
          + "\",\"name\":\"Night\",\"prices\":{\"floor\":100,\"lower\":100,\"upper\":100}}");
      assertEquals(201, made.status(), made.body());
    }
    ChromeDriver phone = browser.phone();
    signIn(phone);
    await().atMost(WAIT).until(() -> !phone.findElements(By.cssSelector("#events tr[data-event-id='" + longId + "']")).isEmpty());

    for (String id : List.of(shortId, longId)) {
      @SuppressWarnings("unchecked")
      Map<String, Object> cell = (Map<String, Object>) phone.executeScript(
          "const tr = document.querySelector('#events tr[data-event-id=\"' + arguments[0] + '\"]');"
              + "const td = tr.cells[0], range = document.createRange();"
              + "range.selectNodeContents(document.createTreeWalker(td, NodeFilter.SHOW_TEXT).nextNode());"
              + "const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;"
              + "const id = td.querySelector('[title]');"
              + "return {text: td.textContent, title: id ? id.title : null, lines: lines,"
              + " cut: td.scrollWidth > td.clientWidth || (id !== null && id.scrollWidth > id.clientWidth)};", id);
      assertEquals(id, cell.get("text"), "the whole id is the cell's text, as a screen reader reads it");
      assertEquals(1L, ((Number) cell.get("lines")).longValue(), id + " is on one line: " + cell);
      assertEquals(id, cell.get("title"), "the whole id is the tooltip");
      assertEquals(id.equals(longId), cell.get("cut"), id + " is cut short only when longer than the column: " + cell);
    }
    long width = (Long) phone.executeScript("return document.documentElement.scrollWidth;");
    assertTrue(width <= 390, "the console fits 390 px: " + width);
    Number sideways = (Number) phone.executeScript("const box = document.getElementById('events').parentElement;"
        + "return box.scrollWidth - box.clientWidth;");
    assertEquals(0, sideways.intValue(), "the events' list fits its box, its Manage buttons in view");
    phone.executeScript("document.querySelector('#events tr[data-event-id=\"' + arguments[0] + '\"]').scrollIntoView({block: 'center'});",
        shortId);
    Chromium.screenshot(phone, "console-3-event-ids-390");
  }

  @Test
  void aWrongTokenIsRefusedAndTheTokenIsKeptOnlyForTheTab() {
    ChromeDriver page = browser.desktop();
    page.get(base + "/admin/console");
    WebElement token = page.findElement(By.id("token"));
    token.sendKeys("not-the-admin-token-0123456789abcdef");
    token.sendKeys(Keys.ENTER);
    await().atMost(WAIT).until(() -> page.findElement(By.id("status")).getText().startsWith("The token was not accepted: 403"));
    assertTrue(!page.findElement(By.id("app")).isDisplayed(), "nothing is shown without the token");
    assertEquals(null, page.executeScript("return sessionStorage.getItem('boxoffice.adminToken');"));
    assertEquals(null, page.executeScript("return localStorage.getItem('boxoffice.adminToken');"));
    Chromium.screenshot(page, "console-desktop-wrong-token");

    signIn(page);
    assertEquals(TestNode.ADMIN_TOKEN, page.executeScript("return sessionStorage.getItem('boxoffice.adminToken');"));
    // A reload keeps the tab signed in; "Forget token" signs it out.
    page.navigate().refresh();
    await().atMost(WAIT).until(() -> page.findElement(By.id("app")).isDisplayed());
    page.findElement(By.id("forget")).click();
    assertEquals(null, page.executeScript("return sessionStorage.getItem('boxoffice.adminToken');"));
    assertTrue(!page.findElement(By.id("app")).isDisplayed());
  }

  /** Opens the console and enters the admin token with the keyboard (Enter submits). */
  private static void signIn(ChromeDriver page) {
    page.get(base + "/admin/console");
    await().atMost(WAIT).until(() -> page.findElement(By.id("token")).isDisplayed());
    WebElement token = page.findElement(By.id("token"));
    token.sendKeys(TestNode.ADMIN_TOKEN);
    token.sendKeys(Keys.ENTER);
    awaitStatus(page, "Signed in to the console.");
    assertTrue(page.findElement(By.id("app")).isDisplayed());
  }

  private static void awaitStatus(ChromeDriver page, String text) {
    await().atMost(WAIT).untilAsserted(() -> assertEquals(text, page.findElement(By.id("status")).getText()));
  }

  private static void awaitText(ChromeDriver page, String id, String text) {
    await().atMost(WAIT).untilAsserted(() -> assertEquals(text, page.findElement(By.id(id)).getText()));
  }

  private static String rowState(ChromeDriver page, String eventId) {
    return page.findElement(By.cssSelector("#events tr[data-event-id='" + eventId + "'] .state")).getText();
  }

  /** A fan signs up, joins the line, waits to be admitted and buys the two best seats. */
  private static HttpFan buyTwo(String eventId) {
    HttpFan fan = new HttpFan(node.httpPort());
    fan.signUp("console-" + UUID.randomUUID() + "@example.com");
    keepQueueCookie(fan, eventId, fan.send("POST", "/api/events/" + eventId + "/queue", "{}"));
    await().atMost(WAIT).until(() -> {
      HttpFan.Reply status = fan.send("GET", "/api/events/" + eventId + "/queue/status", null);
      keepQueueCookie(fan, eventId, status);
      return status.status() == 200 && status.json().path("state").asText().equals("admitted");
    });
    HttpFan.Reply hold = fan.send("POST", "/api/events/" + eventId + "/cart/holds", "{\"best\":{\"quantity\":2}}");
    assertEquals(200, hold.status(), hold.body());
    HttpFan.Reply paid = fan.send("POST", "/api/events/" + eventId + "/cart/checkout", "{\"paymentToken\":\"tok_visa\"}",
        "Idempotency-Key", UUID.randomUUID().toString());
    assertEquals(200, paid.status(), paid.body());
    return fan;
  }

  private static void keepQueueCookie(HttpFan fan, String eventId, HttpFan.Reply reply) {
    reply.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("bo_q_" + eventId + "=")).findFirst()
        .ifPresent(c -> fan.withQueueCookie(eventId, c.substring(c.indexOf('=') + 1, c.indexOf(';'))));
  }
}
