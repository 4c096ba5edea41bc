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
 */
public record ShopSettings(Duration retryDeadline, Duration retryMinAttempt, Duration retryPause, Duration expiryWait) {

  public static ShopSettings fromConfig(Config config) {
    Config http = config.getConfig("boxoffice.http");
    return new ShopSettings(http.getDuration("retry-deadline"), http.getDuration("retry-min-attempt"),
        http.getDuration("retry-pause"), http.getDuration("cart-expiry-wait"));
  }

  public ShopSettings withRetryDeadline(Duration deadline) {
    return new ShopSettings(deadline, retryMinAttempt, retryPause, expiryWait);
  }

  AskAgain askAgain() {
    return new AskAgain(retryMinAttempt, retryPause);
  }
}
