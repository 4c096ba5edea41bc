package io.boxoffice.web;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.boxoffice.app.Node;
import io.boxoffice.payment.PaymentSimulator;
import io.boxoffice.support.Chromium;
import io.boxoffice.support.HttpFan;
import io.boxoffice.support.TestNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
import org.openqa.selenium.WindowType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;

/**
 * A fan in a real Chromium against a whole node on PostgreSQL: signs up on the page, waits in the
 * lobby, is drawn and admitted, picks seats on the map, watches the hold timer, pays and keeps a
 * scannable ticket; the open sale, a slow payment, a phone-sized window, the keyboard alone and
 * an unknown event. Screenshots of each state go to server/target/screenshots/fan-*.png.
 */
class FanPagesBrowserTest {
  @RegisterExtension
  static final Chromium browser = new Chromium();

  /** tok_slow answers after the ask timeout (3 s), as in the issue: the page must wait, not give up. */
  static final PaymentSimulator payments = new PaymentSimulator(Duration.ofSeconds(3), 0.0);
  static Node node;
  static String base;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(Clock.systemUTC(), payments);
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

  // ---- set-up over HTTP ---------------------------------------------------------------------

  /**
   * A set-up call, asked again while the busy test machine answers 503 or drops the connection
   * (creating the same id twice is refused with 409, which the caller's assertion shows).
   */
  static HttpFan.Reply setUp(java.util.function.Supplier<HttpFan.Reply> call) {
    HttpFan.Reply[] last = new HttpFan.Reply[1];
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
        .until(() -> (last[0] = call.get()).status() != 503);
    return last[0];
  }

  static String venue(int seats) {
    return venue(node, seats);
  }

  static String venue(Node node, int seats) {
    String id = "wv-" + UUID.randomUUID().toString().substring(0, 8);
    HttpFan.Reply r = setUp(() -> new HttpFan(node.httpPort()).admin("POST", "/admin/venues",
        "{\"venueId\":\"" + id + "\",\"name\":\"Riverside Arena\",\"generate\":{\"layout\":\"stadium\",\"seats\":" + seats + "}}"));
    assertEquals(201, r.status(), r.body());
    return id;
  }

  static String event(String venueId, String onsale) {
    return event(venueId, onsale, null);
  }

  static String event(Node node, String venueId, String onsale) {
    return event(node, venueId, onsale, null);
  }

  static String event(String venueId, String onsale, String holdRules) {
    return event(node, venueId, onsale, holdRules);
  }

  static String event(Node node, String venueId, String onsale, String holdRules) {
    String id = "we-" + UUID.randomUUID().toString().substring(0, 8);
    HttpFan.Reply r = setUp(() -> new HttpFan(node.httpPort()).admin("POST", "/admin/events", "{\"eventId\":\"" + id
        + "\",\"venueId\":\"" + venueId + "\",\"name\":\"Night Owls Live\",\"prices\":{\"floor\":8000,\"lower\":5000,"
        + "\"upper\":2500},\"maxSeatsPerAccount\":6" + (onsale == null ? "" : ",\"onsale\":" + onsale)
        + (holdRules == null ? "" : "," + holdRules) + "}"));
    assertEquals(201, r.status(), r.body());
    return id;
  }

  static String openEvent() {
    return openEvent(null);
  }

  /** An open sale; {@code holdRules} such as {@code "holdSeconds":30} go into the event (null: the defaults). */
  static String openEvent(String holdRules) {
    String id = event(venue(200), null, holdRules);
    assertEquals(200, setUp(() -> new HttpFan(node.httpPort()).admin("POST", "/admin/events/" + id + "/open", null)).status());
    return id;
  }

  // ---- page helpers -------------------------------------------------------------------------

  static WebElement byId(ChromeDriver d, String id) {
    return d.findElement(By.id(id));
  }

  static void awaitVisible(ChromeDriver d, String id, Duration within) {
    await().atMost(within).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> byId(d, id).isDisplayed());
  }

  static void awaitText(ChromeDriver d, String id, String part, Duration within) {
    await().atMost(within).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
        .until(() -> byId(d, id).getText().contains(part));
  }

  static String email() {
    return "web-" + UUID.randomUUID().toString().substring(0, 12) + "@example.com";
  }

  /** Signs up on the page (Enter submits the form) and waits until the page knows the fan. */
  static String signUpOnPage(ChromeDriver d) {
    awaitVisible(d, "auth", Duration.ofSeconds(15));
    byId(d, "show-signup").click();
    String email = email();
    byId(d, "signup-email").sendKeys(email);
    byId(d, "signup-password").sendKeys("correct horse battery" + Keys.ENTER);
    awaitVisible(d, "signout", Duration.ofSeconds(15));
    return email;
  }

  static HttpFan fanOf(ChromeDriver d) {
    return new HttpFan(node.httpPort()).withCookie(d.manage().getCookieNamed("bo_id").getValue());
  }

  /** Clicks seat {@code seatId} where the page drew it, scrolled into the middle of the window first. */
  static void clickSeat(ChromeDriver d, String seatId) {
    @SuppressWarnings("unchecked")
    Map<String, Number> p = (Map<String, Number>) d.executeScript(
        "const p = window.boxoffice.seatPoint(arguments[0]), c = document.getElementById('map');"
            + "window.scrollBy(0, c.getBoundingClientRect().top + p.y - window.innerHeight / 2);"
            + "const r = c.getBoundingClientRect(); return {x: r.left + p.x, y: r.top + p.y};", seatId);
    new Actions(d).moveToLocation((int) Math.round(p.get("x").doubleValue()), (int) Math.round(p.get("y").doubleValue()))
        .click().perform();
  }

  @SuppressWarnings("unchecked")
  static List<String> availableSeats(ChromeDriver d, int n) {
    return (List<String>) d.executeScript("return window.boxoffice.availableSeats(arguments[0])", n);
  }

  static int ticketsShown(ChromeDriver d) {
    return d.findElements(By.cssSelector("#ticket-list li")).size();
  }

  // ---- the tests ----------------------------------------------------------------------------

  @Test
  void aFanSignsUpWaitsInTheLobbyIsAdmittedPicksTwoSeatsPaysAndKeepsAScannableTicket() {
    String venueId = venue(200);
    ChromeDriver d = browser.desktop();
    Instant start = Instant.now().plusSeconds(25);
    String e = event(venueId, "{\"lobbyOpensAt\":\"" + Instant.now() + "\",\"startsAt\":\"" + start
        + "\",\"admissionPerMinute\":1200,\"maxActiveShoppers\":5000}");
    d.get(base + "/events/" + e);
    awaitText(d, "event-name", "Night Owls Live", Duration.ofSeconds(10));
    assertTrue(byId(d, "event-where").getText().contains("Riverside Arena"), byId(d, "event-where").getText());
    Chromium.screenshot(d, "fan-1-signin-desktop");

    signUpOnPage(d);
    awaitVisible(d, "join-form", Duration.ofSeconds(10));
    byId(d, "join-button").click();
    awaitText(d, "state-text", "lobby", Duration.ofSeconds(10));
    awaitText(d, "event-when", "Sale starts in", Duration.ofSeconds(5));
    assertEquals("200 seats in this sale.", byId(d, "seats-left").getText());
    Chromium.screenshot(d, "fan-2-lobby-desktop");

    // Drawn at the start (the lottery's places spread over more than the one account), admitted
    // at 20 a second: the page turns into the shop by itself.
    d.executeScript("window.sameDocument = 42");
    awaitVisible(d, "shop", Duration.ofSeconds(90));
    assertEquals(42L, d.executeScript("return window.sameDocument"), "the shop opened without a reload");
    await().atMost(Duration.ofSeconds(10)).until(() -> ((Number) d.executeScript("return window.boxoffice.seats()")).intValue() == 200);
    assertTrue(byId(d, "prices").getText().contains("€80.00"), byId(d, "prices").getText());
    assertEquals(6, d.findElements(By.cssSelector("#quantity option")).size(), "quantity up to the event's limit");
    Chromium.screenshot(d, "fan-3-shop-desktop");

    List<String> two = availableSeats(d, 2);
    clickSeat(d, two.get(0));
    clickSeat(d, two.get(1));
    awaitText(d, "picked-text", two.get(1), Duration.ofSeconds(5));
    byId(d, "hold-picked").click();
    awaitVisible(d, "cart", Duration.ofSeconds(10));
    await().atMost(Duration.ofSeconds(10)).until(() -> d.findElements(By.cssSelector("#cart-list li")).size() == 2);
    String cartText = byId(d, "cart-list").getText();
    assertTrue(cartText.contains(two.get(0)) && cartText.contains(two.get(1)), cartText);
    String first = byId(d, "countdown").getText();
    assertTrue(first.matches("\\d\\d:\\d\\d"), first);
    await().atMost(Duration.ofSeconds(5)).until(() -> !byId(d, "countdown").getText().equals(first));
    // A desktop's window shows the map or the cart, not both: the bar at the foot says what is held.
    d.executeScript("window.scrollTo(0, 0)");
    awaitText(d, "cart-bar-seats", "2 seats held", Duration.ofSeconds(5));
    Chromium.screenshot(d, "fan-8-cart-bar-desktop");
    d.executeScript("document.getElementById('cart').scrollIntoView()");
    Chromium.screenshot(d, "fan-4-cart-desktop");

    byId(d, "buy").click();
    await().atMost(Duration.ofSeconds(20)).until(() -> ticketsShown(d) == 2);
    await().atMost(Duration.ofSeconds(10)).until(() -> (Boolean) d.executeScript(
        "return [...document.querySelectorAll('#ticket-list img')].every(i => i.complete && i.naturalWidth > 0)"));
    d.executeScript("document.getElementById('cart').scrollIntoView()");
    Chromium.screenshot(d, "fan-5-tickets-desktop");

    JsonNode tickets = fanOf(d).send("GET", "/api/me/tickets", null).json().get("tickets");
    assertEquals(2, tickets.size());
    for (JsonNode t : tickets) {
      QrCodes.Png qr = QrCodes.png(node.httpPort(), fanOf(d).cookie(), "/api/me/tickets/" + t.get("ticketId").asText() + "/qr");
      assertEquals(200, qr.status());
      assertEquals(t.get("barcode").asText(), QrCodes.decode(qr.body()), "the QR code on the page scans to the ticket's barcode");
    }

    d.navigate().refresh();
    await().atMost(Duration.ofSeconds(15)).until(() -> ticketsShown(d) == 2);
    d.executeScript("document.getElementById('tickets').scrollIntoView()");
    Chromium.screenshot(d, "fan-6-tickets-after-reload-desktop");
  }

  @Test
  void anOpenSaleGoesFromSignInToTheShopWithoutAReloadUsingTheKeyboardAlone() {
    String e = openEvent();
    ChromeDriver d = browser.desktop();
    HttpFan fan = new HttpFan(node.httpPort());
    String email = email();
    fan.signUp(email);
    d.get(base + "/events/" + e);
    awaitVisible(d, "auth", Duration.ofSeconds(15));
    d.executeScript("window.sameDocument = 7");
    // Tab to the email field, type, Tab to the password, Enter: no mouse.
    Actions keys = new Actions(d);
    for (int i = 0; i < 8 && !"signin-email".equals(d.switchTo().activeElement().getAttribute("id")); i++) {
      keys.sendKeys(Keys.TAB).perform();
    }
    assertEquals("signin-email", d.switchTo().activeElement().getAttribute("id"), "Tab reaches the email field");
    keys.sendKeys(email).sendKeys(Keys.TAB).sendKeys("correct horse battery").sendKeys(Keys.ENTER).perform();
    // An open sale has no line: signing in is joining, and the shop opens in the same page.
    awaitVisible(d, "shop", Duration.ofSeconds(15));
    Chromium.screenshot(d, "fan-7-open-sale-shop-desktop");
    assertEquals(7L, d.executeScript("return window.sameDocument"), "the shop opened without a reload");

    // Best available with the keyboard: Tab to the quantity, choose 3, Enter submits the form.
    for (int i = 0; i < 20 && !"quantity".equals(d.switchTo().activeElement().getAttribute("id")); i++) {
      keys.sendKeys(Keys.TAB).perform();
    }
    assertEquals("quantity", d.switchTo().activeElement().getAttribute("id"), "Tab reaches the quantity");
    keys.sendKeys("3").perform();
    for (int i = 0; i < 6 && !"best-button".equals(d.switchTo().activeElement().getAttribute("id")); i++) {
      keys.sendKeys(Keys.TAB).perform();
    }
    keys.sendKeys(Keys.ENTER).perform();
    await().atMost(Duration.ofSeconds(10)).until(() -> d.findElements(By.cssSelector("#cart-list li")).size() == 3);

    // Two chosen seats with the keyboard: section, row, seat, "Pick", the next seat, "Pick", "Hold".
    for (int i = 0; i < 30 && !"pick-seat".equals(d.switchTo().activeElement().getAttribute("id")); i++) {
      keys.sendKeys(Keys.TAB).perform();
    }
    assertEquals("pick-seat", d.switchTo().activeElement().getAttribute("id"), "Tab reaches the seat choice");
    String first = d.switchTo().activeElement().getAttribute("value");
    keys.sendKeys(Keys.TAB).sendKeys(Keys.ENTER).perform();   // Pick
    await().atMost(Duration.ofSeconds(5)).until(() -> byId(d, "picked-text").getText().startsWith("Picked: "));
    keys.keyDown(Keys.SHIFT).sendKeys(Keys.TAB).keyUp(Keys.SHIFT).perform();   // back to the seat
    assertEquals("pick-seat", d.switchTo().activeElement().getAttribute("id"), "Shift+Tab goes back to the seat choice");
    keys.sendKeys(Keys.ARROW_DOWN).perform();   // the next seat of the row
    String second = d.switchTo().activeElement().getAttribute("value");
    assertTrue(!second.equals(first), "the arrow moved to another seat");
    keys.sendKeys(Keys.TAB).sendKeys(Keys.ENTER).perform();   // Pick
    await().atMost(Duration.ofSeconds(5)).until(() -> byId(d, "picked-text").getText().matches("Picked: \\S+, \\S+ .*"));
    keys.sendKeys(Keys.TAB).perform();   // to "Hold"
    assertEquals("hold-picked", d.switchTo().activeElement().getAttribute("id"), "Tab reaches the hold button");
    String picked = byId(d, "picked-text").getText();
    keys.sendKeys(Keys.ENTER).perform();
    await().atMost(Duration.ofSeconds(10)).until(() -> d.findElements(By.cssSelector("#cart-list li")).size() == 5);
    assertTrue(picked.matches("Picked: \\S+, \\S+ .*"), "two seats picked by keyboard: " + picked);

    // Pay with the keyboard: Tab on to Buy, Enter; the tickets follow.
    for (int i = 0; i < 30 && !"buy".equals(d.switchTo().activeElement().getAttribute("id")); i++) {
      keys.sendKeys(Keys.TAB).perform();
    }
    assertEquals("buy", d.switchTo().activeElement().getAttribute("id"), "Tab reaches Buy");
    keys.sendKeys(Keys.ENTER).perform();
    await().atMost(Duration.ofSeconds(20)).until(() -> ticketsShown(d) == 5);
  }

  @Test
  void aSlowPaymentShowsPendingThenTheTicketsWithExactlyOneChargeEvenAcrossAReload() {
    String e = openEvent();
    ChromeDriver d = browser.desktop();
    d.get(base + "/events/" + e);
    signUpOnPage(d);
    awaitVisible(d, "shop", Duration.ofSeconds(15));
    byId(d, "best-button").click();
    await().atMost(Duration.ofSeconds(10)).until(() -> d.findElements(By.cssSelector("#cart-list li")).size() == 2);
    int chargesBefore = payments.ledger().size();
    long capturedBefore = payments.ledger().values().stream().filter(c -> c.status() == PaymentSimulator.Status.CAPTURED).count();
    WebElement token = byId(d, "token");
    token.clear();
    token.sendKeys("tok_slow");
    byId(d, "buy").click();
    awaitText(d, "checkout-status", "Payment pending", Duration.ofSeconds(10));
    assertFalse(byId(d, "buy").isEnabled(), "Buy is disabled while paying");
    d.executeScript("document.getElementById('cart').scrollIntoView()");
    Chromium.screenshot(d, "fan-8-payment-pending-desktop");
    String key = (String) d.executeScript("return JSON.parse(sessionStorage.getItem('bo-checkout-' + arguments[0])).key", e);
    assertTrue(key != null && !key.isEmpty());
    // A reload while the answer is out: the page asks again with the same key.
    d.navigate().refresh();
    await().atMost(Duration.ofSeconds(40)).until(() -> ticketsShown(d) == 2);
    awaitText(d, "checkout-status", "Paid: order", Duration.ofSeconds(10));
    assertEquals(null, d.executeScript("return sessionStorage.getItem('bo-checkout-' + arguments[0])", e),
        "the attempt is forgotten once answered");
    // Every retry carried the one key: the cart made one order, so one authorization, captured.
    assertEquals(chargesBefore + 1, payments.ledger().size(), "one authorization for the one attempt: " + payments.ledger());
    assertEquals(1, payments.ledger().values().stream().filter(c -> c.status() == PaymentSimulator.Status.CAPTURED
       ).count() - capturedBefore, "one capture");
    d.executeScript("document.getElementById('tickets').scrollIntoView()");
    Chromium.screenshot(d, "fan-9-slow-payment-tickets-desktop");
  }

  @Test
  void aStaleSecondTabDoesNotPayForSeatsItDoesNotShow() {
    String e = openEvent();
    ChromeDriver d = browser.desktop();
    d.get(base + "/events/" + e);
    signUpOnPage(d);
    awaitVisible(d, "shop", Duration.ofSeconds(15));
    byId(d, "best-button").click();
    await().atMost(Duration.ofSeconds(10)).until(() -> cartShown(d).size() == 2);
    List<String> stale = cartShown(d);
    String first = d.getWindowHandle();

    // A second tab of the same fan (same cookies, its own sessionStorage) changes the hold: it gives
    // one seat up and holds another. The first tab is not told and still shows its two seats.
    d.switchTo().newWindow(WindowType.TAB);
    String second = d.getWindowHandle();
    d.get(base + "/events/" + e);
    awaitVisible(d, "shop", Duration.ofSeconds(15));
    await().atMost(Duration.ofSeconds(10)).until(() -> cartShown(d).size() == 2);
    d.findElement(By.cssSelector("#cart-list li[data-seat='" + stale.get(0) + "'] button")).click();
    await().atMost(Duration.ofSeconds(10)).until(() -> cartShown(d).size() == 1);
    new Select(byId(d, "quantity")).selectByValue("1");
    byId(d, "best-button").click();
    await().atMost(Duration.ofSeconds(10)).until(() -> cartShown(d).size() == 2);
    List<String> fresh = cartShown(d);
    assertFalse(fresh.contains(stale.get(0)), fresh + " after giving up " + stale.get(0));

    d.switchTo().window(first);
    assertEquals(stale, cartShown(d), "the first tab still shows what it showed");
    int chargesBefore = payments.ledger().size();
    byId(d, "buy").click();
    // The server compares the seats this page shows with the seats held: 409 cart_changed, no charge.
    awaitText(d, "checkout-status", "Your cart changed", Duration.ofSeconds(10));
    assertEquals(chargesBefore, payments.ledger().size(), "nothing charged");
    await().atMost(Duration.ofSeconds(10)).until(() -> cartShown(d).equals(fresh));
    assertEquals(0, ticketsShown(d));
    assertTrue(byId(d, "buy").isEnabled(), "Buy can be pressed again");
    d.executeScript("document.getElementById('cart').scrollIntoView()");
    Chromium.screenshot(d, "fan-19-stale-tab-cart-changed-desktop");

    // Now the page shows what is held: Buy pays for exactly those seats.
    byId(d, "buy").click();
    await().atMost(Duration.ofSeconds(20)).until(() -> ticketsShown(d) == 2);
    assertEquals(chargesBefore + 1, payments.ledger().size(), "one charge, for the fresh cart");
    List<String> ticketSeats = new java.util.ArrayList<>();
    fanOf(d).send("GET", "/api/me/tickets", null).json().get("tickets").forEach(t -> ticketSeats.add(t.get("seatId").asText()));
    assertEquals(new java.util.TreeSet<>(fresh), new java.util.TreeSet<>(ticketSeats), "tickets for the seats the page showed");
    d.switchTo().window(second).close();
    d.switchTo().window(first);
  }

  /** The seat ids the cart on the page lists, in its order. */
  @SuppressWarnings("unchecked")
  static List<String> cartShown(ChromeDriver d) {
    // Read in one script: the page may draw the list again between a find and a read (a stale element).
    return (List<String>) d.executeScript("return [...document.querySelectorAll('#cart-list li')].map(li => li.dataset.seat)");
  }

  @Test
  void theCartWarnsNearTheEndAndDropsSeatsWhoseHoldRanOut() {
    String e = openEvent("\"holdSeconds\":30,\"holdJitterSeconds\":0");
    ChromeDriver d = browser.desktop();
    d.get(base + "/events/" + e);
    signUpOnPage(d);
    awaitVisible(d, "shop", Duration.ofSeconds(15));
    byId(d, "best-button").click();
    await().atMost(Duration.ofSeconds(10)).until(() -> d.findElements(By.cssSelector("#cart-list li")).size() == 2);
    // Under a minute left from the start: the timer is in its warning state, and says so aloud.
    await().atMost(Duration.ofSeconds(5)).until(() -> byId(d, "timer").getAttribute("class").contains("warning"));
    awaitText(d, "live", "Less than a minute left", Duration.ofSeconds(5));
    d.executeScript("document.getElementById('cart').scrollIntoView()");
    Chromium.screenshot(d, "fan-17-cart-warning-desktop");
    await().atMost(Duration.ofSeconds(45)).until(() -> d.findElements(By.cssSelector("#cart-list li")).isEmpty());
    awaitText(d, "checkout-status", "Your hold ran out", Duration.ofSeconds(5));
    assertFalse(byId(d, "checkout-form").isDisplayed(), "nothing left to pay for");
    Chromium.screenshot(d, "fan-18-hold-expired-desktop");
  }

  @Test
  void thePagesWorkOnAPhone390PixelsWide() {
    String e = openEvent();
    ChromeDriver d = browser.phone();
    d.get(base + "/events/" + e);
    awaitText(d, "event-name", "Night Owls Live", Duration.ofSeconds(10));
    Chromium.screenshot(d, "fan-10-signin-390");
    assertFits(d);
    signUpOnPage(d);
    awaitVisible(d, "shop", Duration.ofSeconds(15));
    await().atMost(Duration.ofSeconds(10)).until(() -> ((Number) d.executeScript("return window.boxoffice.seats()")).intValue() == 200);
    Chromium.screenshot(d, "fan-11-shop-390");
    assertFits(d);
    List<String> one = availableSeats(d, 1);
    clickSeat(d, one.get(0));
    awaitText(d, "picked-text", one.get(0), Duration.ofSeconds(5));
    byId(d, "hold-picked").click();
    await().atMost(Duration.ofSeconds(10)).until(() -> d.findElements(By.cssSelector("#cart-list li")).size() == 1);
    d.executeScript("document.getElementById('cart').scrollIntoView()");
    Chromium.screenshot(d, "fan-12-cart-390");
    assertFits(d);
    byId(d, "buy").click();
    await().atMost(Duration.ofSeconds(20)).until(() -> ticketsShown(d) == 1);
    d.executeScript("document.getElementById('tickets').scrollIntoView()");
    Chromium.screenshot(d, "fan-13-tickets-390");
    assertFits(d);
  }

  /** Whether the element's whole box is inside the window (and not under the cart bar, when that shows). */
  static boolean inView(ChromeDriver d, String id) {
    return (Boolean) d.executeScript("const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        + "const bar = document.getElementById('cart-bar');"
        + "const foot = bar.hidden ? window.innerHeight : bar.getBoundingClientRect().top;"
        + "return r.height > 0 && r.top >= 0 && r.bottom <= foot;", id);
  }

  @Test
  void onAPhoneABarAtTheFootShowsTheHeldSeatsAndTheirTimeWhileTheCartIsOutOfViewAndLeadsToIt() {
    String e = openEvent();
    ChromeDriver d = browser.phone();
    d.get(base + "/events/" + e);
    signUpOnPage(d);
    awaitVisible(d, "shop", Duration.ofSeconds(15));
    await().atMost(Duration.ofSeconds(10)).until(() -> ((Number) d.executeScript("return window.boxoffice.seats()")).intValue() == 200);
    assertFalse(byId(d, "cart-bar").isDisplayed(), "no bar before anything is held");
    new Select(byId(d, "quantity")).selectByValue("2");
    byId(d, "best-button").click();
    await().atMost(Duration.ofSeconds(10)).until(() -> d.findElements(By.cssSelector("#cart-list li")).size() == 2);

    // Back at the seat map the cart is far below: the bar says what is held and for how long.
    d.executeScript("window.scrollTo(0, 0)");
    assertEquals(Boolean.TRUE, d.executeScript("return document.getElementById('cart').getBoundingClientRect().top > window.innerHeight"),
        "at the top of a phone's page the cart is out of view");
    awaitVisible(d, "cart-bar", Duration.ofSeconds(5));
    awaitText(d, "cart-bar-seats", "2 seats held", Duration.ofSeconds(5));
    String shown = byId(d, "cart-bar-countdown").getText();
    assertTrue(shown.matches("\\d\\d:\\d\\d"), "mm:ss, not " + shown);
    await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200))
        .until(() -> !byId(d, "cart-bar-countdown").getText().equals(shown));
    assertEquals(byId(d, "countdown").getText(), byId(d, "cart-bar-countdown").getText(), "the bar shows the cart's own time");
    assertEquals("Go to cart", byId(d, "cart-bar-go").getAccessibleName());
    assertEquals(Boolean.FALSE, d.executeScript("return document.getElementById('cart-bar').contains(document.activeElement)"),
        "the bar took no focus");
    Chromium.screenshot(d, "fan-8-cart-bar-390");
    assertFits(d);
    // Once any of the cart is in view the bar goes, so it never covers the cart's seats or its Buy.
    d.executeScript("window.scrollBy(0, document.getElementById('cart').getBoundingClientRect().top - window.innerHeight + 40)");
    awaitHidden(d, "cart-bar");
    d.executeScript("window.scrollTo(0, 0)");
    awaitVisible(d, "cart-bar", Duration.ofSeconds(5));

    byId(d, "cart-bar-go").click();
    await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200)).until(() -> inView(d, "buy") && inView(d, "timer"));
    assertEquals("cart", d.switchTo().activeElement().getAttribute("id"), "the keyboard goes on from the cart");
    awaitHidden(d, "cart-bar");
    Chromium.screenshot(d, "fan-8-cart-after-go-to-cart-390");

    // Paid: nothing is held any more, so no bar even away from the cart.
    byId(d, "buy").click();
    await().atMost(Duration.ofSeconds(20)).until(() -> ticketsShown(d) == 2);
    d.executeScript("window.scrollTo(0, 0)");
    awaitHidden(d, "cart-bar");
  }

  static void awaitHidden(ChromeDriver d, String id) {
    await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200)).until(() -> !byId(d, id).isDisplayed());
  }

  @Test
  void aWaitingFanOnAPhoneSeesPlacePeopleAheadAndCanLeave() {
    // A sale that has started with a line that does not move: the fan waits.
    String e = event(venue(200), "{\"lobbyOpensAt\":\"" + Instant.now() + "\",\"startsAt\":\"" + Instant.now()
        + "\",\"admissionPerMinute\":1,\"maxActiveShoppers\":1}");
    HttpFan ahead = new HttpFan(node.httpPort());
    ahead.signUp(email());
    HttpFan.Reply first = ahead.send("POST", "/api/events/" + e + "/queue", "{}");
    assertEquals(200, first.status(), first.body());
    HttpFan ahead2 = new HttpFan(node.httpPort());
    ahead2.signUp(email());
    assertEquals(200, ahead2.send("POST", "/api/events/" + e + "/queue", "{}").status());
    ChromeDriver d = browser.phone();
    d.get(base + "/events/" + e);
    signUpOnPage(d);
    awaitVisible(d, "join-form", Duration.ofSeconds(10));
    byId(d, "join-button").click();
    awaitText(d, "state-text", "You are in line", Duration.ofSeconds(15));
    assertFalse(byId(d, "lottery-text").isDisplayed(), "no lottery promise once the fan has a place");
    // People, not places: the line's front is admittedUpTo, and this fan's own place is not ahead of it.
    HttpFan me = fanOf(d).withQueueCookie(e, d.manage().getCookieNamed("bo_q_" + e).getValue());
    await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(300)).ignoreExceptions().until(() -> {
      JsonNode st = me.send("GET", "/api/events/" + e + "/queue/status", null).json();
      long people = st.get("position").asLong() - st.get("admittedUpTo").asLong() - 1;
      String expected = people == 0 ? "Nobody is ahead of you." : people == 1 ? "1 person is ahead of you."
          : people + " people are ahead of you.";
      return byId(d, "ahead").getText().equals(expected) && people >= 1;
    });
    assertTrue(byId(d, "seats-left").getText().contains("seats left"), byId(d, "seats-left").getText());
    // The estimate counts the shopper cap: one shopper at a time, each for up to a hold's time, moves
    // the line slower than the admission rate of one a minute says.
    JsonNode summary = new HttpFan(node.httpPort()).send("GET", "/api/events/" + e + "/summary", null).json();
    long minutesEach = Math.round(summary.get("holdSeconds").asDouble() / 60);
    assertTrue(minutesEach > 1, "a hold longer than a minute: " + summary);
    awaitText(d, "wait", "the line moves about one person every " + minutesEach + " minutes", Duration.ofSeconds(5));
    Chromium.screenshot(d, "fan-14-waiting-390");
    assertFits(d);
    byId(d, "leave").click();
    d.switchTo().alert().accept();
    awaitText(d, "state-text", "You left the line", Duration.ofSeconds(10));
  }

  @Test
  void anUnknownEventIsANotFoundPage() {
    ChromeDriver d = browser.desktop();
    d.get(base + "/events/no-such-show-" + UUID.randomUUID().toString().substring(0, 6));
    assertEquals("Event not found", d.getTitle());
    assertTrue(byId(d, "main").getText().contains("no event at this address"));
    Chromium.screenshot(d, "fan-15-not-found-desktop");
    HttpFan.Reply page = new HttpFan(node.httpPort()).send("GET", "/events/no-such-show", null, "Accept", "text/html");
    assertEquals(404, page.status());
    assertTrue(page.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
  }

  /** Nothing wider than the window: no sideways scrolling on a phone. */
  static void assertFits(ChromeDriver d) {
    long scroll = ((Number) d.executeScript("return document.documentElement.scrollWidth")).longValue();
    long width = ((Number) d.executeScript("return window.innerWidth")).longValue();
    assertTrue(scroll <= width, "page is " + scroll + " px wide in a " + width + " px window");
  }

  @Test
  void signingOutEverywhereFromThePageEndsTheFansOtherSessionsToo() {
    String e = openEvent();
    ChromeDriver d = browser.desktop();
    d.get(base + "/events/" + e);
    String email = signUpOnPage(d);
    awaitVisible(d, "shop", Duration.ofSeconds(15));
    HttpFan here = fanOf(d);
    HttpFan.Reply in = new HttpFan(node.httpPort()).send("POST", "/api/session",
        "{\"email\":\"" + email + "\",\"password\":\"correct horse battery\"}");
    assertEquals(200, in.status(), in.body());
    String set = in.headers().firstValue("Set-Cookie").orElseThrow();
    HttpFan elsewhere = new HttpFan(node.httpPort()).withCookie(set.substring("bo_id=".length(), set.indexOf(';')));
    assertEquals(200, elsewhere.send("GET", "/api/me/tickets", null).status());

    byId(d, "signout-everywhere").click();
    awaitVisible(d, "auth", Duration.ofSeconds(15));
    assertEquals(401, here.send("GET", "/api/me/tickets", null).status(), "this browser's session");
    assertEquals(401, elsewhere.send("GET", "/api/me/tickets", null).status(), "the fan's other device");
  }
}
