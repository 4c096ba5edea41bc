package io.boxoffice.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.support.HttpFan;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** What every refusal in these tests must look like, and latency figures for honest fans. */
final class Hostile {
  private Hostile() {}

  /** A 4xx of {@code status} with the contract's {@code {"error","message"}} body carrying {@code code}. */
  static void refused(HttpFan.Reply r, int status, String code) {
    assertEquals(status, r.status(), r.body());
    assertEquals(code, r.error(), r.body());
    assertFalse(r.json().path("message").asText().isEmpty(), "a message: " + r.body());
  }

  /** Any 4xx with a JSON error body; never a 5xx. */
  static void clientError(HttpFan.Reply r) {
    assertTrue(r.status() >= 400 && r.status() < 500, "a 4xx, got " + r.status() + " " + r.body());
    assertFalse(r.error().isEmpty(), r.body());
    assertFalse(r.json().path("message").asText().isEmpty(), r.body());
  }

  /** Milliseconds at the 99th percentile (nearest rank). */
  static long p99(List<Long> millis) {
    List<Long> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    return sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * 0.99) - 1));
  }

  /** JSON string literal of {@code s}, escaping what JSON requires (so a NUL travels as \\u0000). */
  static String json(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  static String credentials(String email, String password) {
    return "{\"email\":" + json(email) + ",\"password\":" + json(password) + "}";
  }
}
