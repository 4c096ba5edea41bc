package io.boxoffice.queue.http;

import io.boxoffice.queue.domain.QueueToken;
import org.apache.pekko.http.javadsl.model.headers.HttpCookie;
import org.apache.pekko.http.javadsl.model.headers.SameSite;
import org.apache.pekko.http.javadsl.model.headers.SetCookie;

/** The {@code bo_q_<eventId>} cookie: the signed queue token, HttpOnly, Secure, SameSite=Lax, for the whole site. */
public final class QueueCookie {
  private QueueCookie() {}

  public static SetCookie of(QueueToken tokens, QueueToken.Claims claims, long maxAgeSeconds) {
    return of(tokens.issue(claims), claims.eventId(), maxAgeSeconds);
  }

  /** Clears the cookie (a fan who left the line). */
  public static SetCookie expired(String eventId) {
    return of("", eventId, 0);
  }

  public static SetCookie of(String token, String eventId, long maxAgeSeconds) {
    return SetCookie.create(HttpCookie.create(QueueToken.cookieName(eventId), token)
        .withHttpOnly(true).withSecure(true).withSameSite(SameSite.Lax).withPath("/").withMaxAge(maxAgeSeconds));
  }
}
