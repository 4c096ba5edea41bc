package io.boxoffice.inventory.domain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The last holds decided with a request id, so that a hold asked again with the same id (the
 * edge asks again when a hand-over dropped or delayed the first ask) is answered with the first
 * one's seats instead of holding more. Bounded: the oldest ids are forgotten first; an edge asks
 * again within seconds, long before thousands of newer holds push its id out.
 */
public final class RecentHolds {
  private final int capacity;
  private final LinkedHashMap<String, Decision.Held> byRequest;

  public RecentHolds(int capacity) {
    this.capacity = capacity;
    this.byRequest = new LinkedHashMap<>(Math.min(capacity, 1024) * 2, 0.75f, false) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Decision.Held> eldest) {
        return size() > RecentHolds.this.capacity;
      }
    };
  }

  /** Notes a hold decision; one without a request id is not remembered. */
  public void remember(Decision decision) {
    if (decision instanceof Decision.Held h && h.requestId() != null) byRequest.put(key(h.account(), h.requestId()), h);
  }

  /** The hold decided for this account under this request id, or null. */
  public Decision.Held find(String account, String requestId) {
    if (requestId == null) return null;
    return byRequest.get(key(account, requestId));
  }

  /** Per account: one account's request id never finds another's hold. */
  private static String key(String account, String requestId) {
    return account + '\n' + requestId;
  }

  /** Oldest first, for a snapshot. */
  public List<Decision.Held> toList() {
    return new ArrayList<>(byRequest.values());
  }

  public static RecentHolds of(int capacity, List<Decision.Held> holds) {
    RecentHolds recent = new RecentHolds(capacity);
    if (holds != null) holds.forEach(recent::remember);
    return recent;
  }
}
