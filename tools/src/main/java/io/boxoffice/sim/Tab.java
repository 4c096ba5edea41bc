package io.boxoffice.sim;

import io.boxoffice.load.Storefront;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One browser tab of an account: its own session (identity cookie), its queue token, its client
 * network (sent as X-Forwarded-For, which a node trusts from loopback peers only), and what its
 * page showed: the place, the wait it promised, when it said "admitted".
 */
final class Tab {
  final Account account;
  final int index;
  final String forwardedFor;
  volatile String identity;
  volatile String queueToken;
  volatile long place;
  /** The first wait the page showed once the place was known (seconds), and when; -1 if never shown. */
  volatile long shownWaitSeconds = -1;
  volatile long shownAt;
  volatile long admittedSeenAt;
  /** Whether the page's bytes were loaded (through an edge worker, each tab loads the page once). */
  volatile boolean pageLoaded;
  /** When its owner was done shopping (paid, refused or walked away), epoch ms; 0 before. */
  volatile long doneAt;
  final AtomicBoolean admitted = new AtomicBoolean();
  final AtomicBoolean done = new AtomicBoolean();
  /** What the tab's owner does once its page says "admitted" (runs once). */
  volatile Consumer<Tab> onAdmitted = t -> {};

  Tab(Account account, int index, String forwardedFor) {
    this.account = account;
    this.index = index;
    this.forwardedFor = forwardedFor;
  }

  /** The headers a browser would send from this tab: its cookies (Secure, so set by hand) and its network. */
  Map<String, String> headers(String eventId) {
    return Storefront.fanHeaders(eventId, identity, queueToken, forwardedFor);
  }

  /** The headers of a tab with these cookies and this network (any may be null). */
  static Map<String, String> headersOf(String eventId, String identity, String queueToken, String forwardedFor) {
    return Storefront.fanHeaders(eventId, identity, queueToken, forwardedFor);
  }

  boolean waiting() {
    return place != 0 && !admitted.get() && !done.get();
  }
}
