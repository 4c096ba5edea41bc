package io.boxoffice.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One simulated account: a human's, or one of a bot operator's. Its tabs are its sessions; what
 * the sale told it (every place any of its tabs was shown, the seats it bought) is kept here for
 * the measures.
 */
final class Account {
  final int id;
  final boolean bot;
  /** The bot operator that owns it (-1 for a human). */
  final int operator;
  final String email;
  final List<Tab> tabs = new ArrayList<>();
  /** Every distinct place any of its tabs was shown. */
  final Set<Long> places = ConcurrentHashMap.newKeySet();
  final AtomicInteger seatsBought = new AtomicInteger();
  volatile String accountId;
  /** When its first join was sent (epoch ms), 0 if it never joined. */
  volatile long firstJoinAt;
  /** When it first tried to join, answered or not (epoch ms), 0 if it never tried. */
  volatile long firstTriedAt;
  /** Whether a join of it was answered "lobby" (it holds a lobby join index: the lottery orders it). */
  volatile boolean lobby;
  /** A bot account whose operator solves proofs of work with every core. */
  volatile boolean fullCpuPow;
  /** Registered for the presale, and the invitation code it was sent (null: none). */
  volatile boolean registered;
  volatile String presaleCode;
  /** Whether it joins the queue at all (an accomplice only lends its identity). */
  final boolean joins;

  /** A human's account ({@code operator} -1) or a bot operator's. */
  Account(int id, int operator, String email, boolean joins) {
    this.id = id;
    this.bot = operator >= 0;
    this.operator = operator;
    this.email = email;
    this.joins = joins;
  }

  synchronized void tried(long atMillis) {
    if (firstTriedAt == 0 || atMillis < firstTriedAt) firstTriedAt = atMillis;
  }

  synchronized void joined(long atMillis) {
    if (firstJoinAt == 0 || atMillis < firstJoinAt) firstJoinAt = atMillis;
  }

  /** Its lowest place, 0 if none was shown. */
  long place() {
    return places.stream().mapToLong(Long::longValue).min().orElse(0);
  }
}
