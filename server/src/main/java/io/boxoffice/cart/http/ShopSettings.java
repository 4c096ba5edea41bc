package io.boxoffice.cart.http;

import com.typesafe.config.Config;
import java.time.Duration;

/**
 * The shop's tunables under {@code boxoffice.http} (conf/boxoffice.conf), read once at start.
 *
 * @param retryDeadline how long a hold or a checkout may be asked again while its entity does
 *     not answer (an entity moving to another node): a request id (holds) or the fan's
 *     Idempotency-Key (checkouts) makes each new ask find the first one's outcome
 * @param retryMinAttempt no new ask starts with less than this left before the deadline
 * @param retryPause the pause before asking again after an answer that said to (a timeout is
 *     asked again at once)
 * @param expiryWait how long an empty cart's view waits for the cart's word on expiry: a
 *     nicety, not worth a slow page
 * @param seatMap what a seat map read may cost the node
 */
public record ShopSettings(Duration retryDeadline, Duration retryMinAttempt, Duration retryPause, Duration expiryWait,
                           SeatMapLimits seatMap) {

  /**
   * Under {@code boxoffice.http.seat-map}.
   *
   * @param maxPlainBytes a seat map rendering larger than this is sent only gzipped (406
   *     {@code gzip_required} to a client that does not accept gzip)
   * @param bytesPerToken a seat map read takes one token of the account's and of the network's
   *     rate limits per this many bytes sent (at least one; at most a whole burst)
   */
  public record SeatMapLimits(long maxPlainBytes, long bytesPerToken) {
    public SeatMapLimits {
      if (maxPlainBytes < 1) throw new IllegalArgumentException("seat-map.max-plain-bytes must be positive");
      if (bytesPerToken < 1) throw new IllegalArgumentException("seat-map.bytes-per-token must be positive");
    }

    /** The tokens a response of {@code bytes} costs: one per {@code bytesPerToken} begun. */
    public int tokens(long bytes) {
      return (int) Math.min(Integer.MAX_VALUE, Math.max(1, (bytes + bytesPerToken - 1) / bytesPerToken));
    }
  }

  public static ShopSettings fromConfig(Config config) {
    Config http = config.getConfig("boxoffice.http");
    return new ShopSettings(http.getDuration("retry-deadline"), http.getDuration("retry-min-attempt"),
        http.getDuration("retry-pause"), http.getDuration("cart-expiry-wait"),
        new SeatMapLimits(http.getBytes("seat-map.max-plain-bytes"), http.getBytes("seat-map.bytes-per-token")));
  }

  public ShopSettings withRetryDeadline(Duration deadline) {
    return new ShopSettings(deadline, retryMinAttempt, retryPause, expiryWait, seatMap);
  }

  AskAgain askAgain() {
    return new AskAgain(retryMinAttempt, retryPause);
  }
}
