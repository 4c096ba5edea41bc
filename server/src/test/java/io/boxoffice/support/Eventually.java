package io.boxoffice.support;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/** The wait several tests share, on Awaitility: until an HTTP call answers as awaited. */
public final class Eventually {
  private Eventually() {}

  /**
   * Sends {@code request} at once and then every {@code every} until its reply passes {@code done},
   * and returns that reply. An assertion failing inside {@code request} (about the replies allowed
   * meanwhile) fails at once; a timeout fails naming {@code awaited} and the last reply.
   */
  public static HttpFan.Reply reply(String awaited, Duration atMost, Duration every,
                                    Callable<HttpFan.Reply> request, Predicate<HttpFan.Reply> done) {
    return await(awaited).atMost(atMost).pollDelay(Duration.ZERO).pollInterval(every).until(request, done);
  }
}
