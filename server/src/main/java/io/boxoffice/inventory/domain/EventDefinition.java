package io.boxoffice.inventory.domain;

import io.boxoffice.common.CborSerializable;
import io.boxoffice.common.TypedText;
import io.boxoffice.venue.domain.VenueLayout;
import java.util.Map;

/** What an event manager set up for an event: its venue, a price per zone and the hold rules. */
public record EventDefinition(
    String eventId,
    String name,
    VenueLayout venue,
    Map<String, Integer> prices,
    int holdSeconds,
    int holdJitterSeconds,
    int maxSeatsPerAccount) implements CborSerializable {

  public static final int MAX_SEATS_PER_ACCOUNT = 50;

  /** Checks the definition against its venue and throws {@link IllegalArgumentException} with a sentence for a person. */
  public EventDefinition validated() {
    if (!VenueLayout.isValidEntityId(eventId)) throw new IllegalArgumentException("eventId must be 1-64 letters, digits, '_' or '-'");
    TypedText.name("name", name, 200);
    if (holdSeconds < 30 || holdSeconds > 3600) throw new IllegalArgumentException("holdSeconds must be 30-3600");
    if (holdJitterSeconds < 0 || holdJitterSeconds > 600) throw new IllegalArgumentException("holdJitterSeconds must be 0-600");
    if (maxSeatsPerAccount < 1 || maxSeatsPerAccount > MAX_SEATS_PER_ACCOUNT)
      throw new IllegalArgumentException("maxSeatsPerAccount must be 1-" + MAX_SEATS_PER_ACCOUNT);
    if (prices == null) throw new IllegalArgumentException("prices are required, one per zone");
    for (String zone : prices.keySet()) {
      if (zone == null || zone.length() > 64 || !TypedText.printable(zone)) throw new IllegalArgumentException("a price's zone must be a zone of the venue");
    }
    for (VenueLayout.Section s : venue.sections()) {
      Integer p = prices.get(s.zone());
      if (p == null) throw new IllegalArgumentException("no price for zone " + s.zone());
      if (p < 0 || p > 100_000_000) throw new IllegalArgumentException("price of zone " + s.zone() + " must be 0-100000000 cents");
    }
    return this;
  }
}
