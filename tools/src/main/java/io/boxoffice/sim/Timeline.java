package io.boxoffice.sim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** The event as its manager sees it, about once a second (admin stats), next to the crowd's own counts. */
final class Timeline {
  /** One look: the event's stats and the simulated tabs waiting and shopping; times are epoch ms. */
  record Sample(long atMillis, String state, long lobby, long admittedUpTo, long activeShoppers, long available, long held,
                long sold, long orders, long waitingTabs, long shoppingTabs, long requestsSent) {}

  private final List<Sample> samples = new ArrayList<>();

  synchronized void add(long atMillis, JsonNode stats, long waitingTabs, long shoppingTabs, long requestsSent) {
    JsonNode seats = stats.path("seats");
    samples.add(new Sample(atMillis, stats.path("state").asText(), stats.path("lobby").asLong(), stats.path("admittedUpTo").asLong(),
        stats.path("activeShoppers").asLong(), seats.path("available").asLong(), seats.path("held").asLong(),
        seats.path("sold").asLong(), stats.path("orders").asLong(), waitingTabs, shoppingTabs, requestsSent));
  }

  synchronized List<Sample> samples() {
    return new ArrayList<>(samples);
  }

  /** When the line first reached {@code place} by these looks (epoch ms), or -1. */
  synchronized long admittedAt(long place) {
    for (Sample s : samples) {
      if (s.admittedUpTo() >= place) return s.atMillis();
    }
    return -1;
  }

  /** The first look at which no seat was available and none held (epoch ms), or -1. */
  synchronized long soldOutAt() {
    for (Sample s : samples) {
      if (s.available() == 0 && s.held() == 0 && s.sold() > 0) return s.atMillis();
    }
    return -1;
  }

  /** The first look at which no seat was available (all held or sold), or -1. */
  synchronized long allTakenAt() {
    for (Sample s : samples) {
      if (s.available() == 0 && s.sold() + s.held() > 0) return s.atMillis();
    }
    return -1;
  }

  synchronized Sample last() {
    return samples.isEmpty() ? null : samples.get(samples.size() - 1);
  }
}
