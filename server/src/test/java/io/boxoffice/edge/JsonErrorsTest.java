package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, finding 10: a body Jackson cannot read is answered with a plain sentence that names
 * the client's field, never our classes, packages or Jackson's internals; and no error message
 * leaves {@link Api} with such a name in it, whoever wrote it.
 */
class JsonErrorsTest {
  static final ActorTestKit testKit = ActorTestKit.create();
  final Api api = new Api(testKit.system(), Duration.ofSeconds(1), 65536);

  /** Shapes like the routes' request records, nested as theirs are (their class names hold a '$'). */
  public record Credentials(String email, String password) {}

  public record Best(Integer quantity, Integer maxPriceCents, String zone) {}

  public record Hold(List<String> seats, Best best) {}

  public record Event(String eventId, Map<String, Integer> prices, int holdSeconds, Boolean presale) {}

  static final List<String> LEAKS = List.of("$", "io.boxoffice", "com.fasterxml", "Coercion", "java.", "jackson", "Jackson");

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  static List<String> malformedBodies() {
    List<String> bodies = new ArrayList<>(List.of(
        "{\"email\":\"a@example.com\",\"email\":\"b@example.com\",\"password\":\"correct horse\"}",
        "{\"email\":1,\"password\":\"correct horse\"}",
        "{\"email\":[\"a\"],\"password\":\"correct horse\"}",
        "{\"email\":{\"x\":1},\"password\":\"correct horse\"}",
        "{\"best\":{\"quantity\":\"2\"}}",
        "{\"best\":{\"quantity\":2.5}}",
        "{\"best\":{\"quantity\":99999999999999999999999}}",
        "{\"best\":{\"quantity\":" + "9".repeat(5000) + "}}",
        "{\"best\":{\"quantity\":1e400}}",
        "{\"best\":{\"quantity\":true}}",
        "{\"best\":{\"quantity\":2,\"quantity\":3}}",
        "{\"seats\":[1,2]}",
        "{\"seats\":\"112-F-7\"}",
        "{\"seats\":[\"a\"],\"seats\":[\"b\"]}",
        "{\"eventId\":\"e\",\"prices\":{\"floor\":\"x\"},\"holdSeconds\":480}",
        "{\"eventId\":\"e\",\"prices\":{\"floor\":49.99},\"holdSeconds\":480}",
        "{\"eventId\":\"e\",\"prices\":[],\"holdSeconds\":480}",
        "{\"eventId\":\"e\",\"holdSeconds\":null}",
        "{\"eventId\":\"e\",\"holdSeconds\":480,\"presale\":\"yes\"}",
        "{\"eventId\":\"e\",\"holdSeconds\":4800000000}",
        "{\"email\":\"a@example.com\"",
        "{\"email\":",
        "{\"em",
        "{",
        "[",
        "[1,2,3]",
        "\"just a string\"",
        "42",
        "true",
        "{\"email\":\"a\"} trailing",
        "{\"email\":\"a\"} {\"email\":\"b\"}",
        "{'email':'a'}",
        "{email:\"a\"}",
        "{\"email\":\"a\",}",
        "{\"email\":\"\u0001\"}",
        "{\"email\":\"\\uZZZZ\"}",
        "{\"$type\":\"java.lang.Runtime\",\"email\":\"a\"}",
        "{\"io.boxoffice.X\":1,\"io.boxoffice.X\":2}",
        "\u0000",
        "NaN",
        "{\"seats\":[" + "[".repeat(3000) + "]".repeat(3000) + "]}",
        "[".repeat(3000) + "]".repeat(3000),
        "{\"best\":" + "{\"best\":".repeat(2000) + "1" + "}".repeat(2001)));
    return bodies;
  }

  static void assertPlain(String message, String body) {
    assertFalse(message.isBlank(), body);
    for (String leak : LEAKS) assertFalse(message.contains(leak), "'" + message + "' for " + abbreviated(body));
  }

  static String abbreviated(String body) {
    return body.length() > 80 ? body.substring(0, 80) + "..." : body;
  }

  @Test
  void everyMalformedBodyIsDescribedInPlainWordsForEveryShape() {
    int described = 0;
    for (Class<?> type : List.of(Credentials.class, Hold.class, Event.class)) {
      for (String body : malformedBodies()) {
        try {
          api.mapper().readValue(body.getBytes(StandardCharsets.UTF_8), type);
        } catch (IOException e) {
          String message = JsonErrors.describe(e);
          assertPlain(message, body);
          described++;
        }
      }
    }
    assertTrue(described > 60, "most bodies are refused by the mapper itself: " + described);
  }

  @Test
  void aDuplicateFieldIsNamedAsTheClientWroteIt() {
    IOException e = assertThrows(IOException.class, () -> api.mapper().readValue(
        "{\"email\":\"a@example.com\",\"email\":\"b@example.com\",\"password\":\"correct horse\"}", Credentials.class));
    assertEquals("duplicate field \"email\"", JsonErrors.describe(e));
    IOException nested = assertThrows(IOException.class, () -> api.mapper().readValue(
        "{\"best\":{\"quantity\":2,\"quantity\":3}}", Hold.class));
    assertEquals("duplicate field \"quantity\"", JsonErrors.describe(nested));
  }

  @Test
  void aWrongTypeNamesTheFieldAndAFieldNameThatIsNotPlainIsNotEchoed() {
    IOException e = assertThrows(IOException.class, () -> api.mapper().readValue("{\"best\":{\"quantity\":\"2\"}}", Hold.class));
    assertTrue(JsonErrors.describe(e).contains("\"best.quantity\""), JsonErrors.describe(e));
    IOException dup = assertThrows(IOException.class, () -> api.mapper().readValue("{\"a$b\":1,\"a$b\":2}", Hold.class));
    assertPlain(JsonErrors.describe(dup), "a$b");
  }

  @Test
  void anErrorWrittenWithAClassNameInItLeavesWithAPlainSentenceInstead() throws Exception {
    for (String leaky : List.of("Cannot construct instance of `io.boxoffice.accounts.http.AccountRoutes$Credentials`",
        "com.fasterxml.jackson.databind.exc.MismatchedInputException: x", "see CoercionConfig", "java.lang.NullPointerException")) {
      HttpResponse response = api.error(400, "bad_request", leaky);
      String body = response.entity().toStrict(1000, org.apache.pekko.stream.Materializer.matFromSystem(testKit.system()))
          .toCompletableFuture().get().getData().utf8String();
      assertPlain(body.replace("bad_request", ""), leaky);
      assertTrue(body.contains("\"error\":\"bad_request\""), body);
    }
    HttpResponse fine = api.error(409, "seats_taken", "these seats are taken: 112-F-7");
    assertTrue(fine.entity().toStrict(1000, org.apache.pekko.stream.Materializer.matFromSystem(testKit.system()))
        .toCompletableFuture().get().getData().utf8String().contains("these seats are taken: 112-F-7"));
  }
}
