package io.boxoffice.inventory.domain;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/** One change of seat state decided by the {@link SeatBook}; a batch of them is one journal event. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "t")
@JsonSubTypes({
  @JsonSubTypes.Type(value = Decision.Held.class, name = "held"),
  @JsonSubTypes.Type(value = Decision.Released.class, name = "released"),
  @JsonSubTypes.Type(value = Decision.Sold.class, name = "sold"),
  @JsonSubTypes.Type(value = Decision.Scanned.class, name = "scanned"),
  @JsonSubTypes.Type(value = Decision.Refused.class, name = "refused")
})
public sealed interface Decision {
  /**
   * What to do with each kind of decision, for {@link #accept}: a new kind does not compile until
   * every reader of decisions says what it does with it.
   */
  interface Cases<R> {
    R held(Held held);

    R released(Released released);

    R sold(Sold sold);

    R scanned(Scanned scanned);

    R refused(Refused refused);
  }

  /** The case of {@code cases} for this kind of decision. */
  <R> R accept(Cases<R> cases);

  /**
   * The seats (indices in seat-map order) were held for the account until the deadline (epoch
   * ms); {@code requestId}, when the edge gave one, lets a repeated ask find this hold again.
   */
  record Held(String account, int[] seats, long until, String requestId) implements Decision {
    public Held(String account, int[] seats, long until) {
      this(account, seats, until, null);
    }

    public Held withRequestId(String id) {
      return new Held(account, seats, until, id);
    }

    @Override
    public <R> R accept(Cases<R> cases) {
      return cases.held(this);
    }
  }

  /** The account's holds on these seats were given back. */
  record Released(String account, int[] seats) implements Decision {
    @Override
    public <R> R accept(Cases<R> cases) {
      return cases.released(this);
    }
  }

  /** The account's live holds on these seats became a sale under the order. */
  record Sold(String account, String orderId, int[] seats) implements Decision {
    @Override
    public <R> R accept(Cases<R> cases) {
      return cases.sold(this);
    }
  }

  /**
   * A confirm of the order found these seats no longer held live by the account (expired,
   * released, never held): the order is refused for good, so that a later confirm of the same
   * order (an ask repeated after a timeout, checkout recovery) cannot sell seats the fan holds
   * again by then under an order whose payment was voided. Changes no seat.
   */
  record Refused(String account, String orderId, java.util.List<String> seatIds) implements Decision {
    @Override
    public <R> R accept(Cases<R> cases) {
      return cases.refused(this);
    }
  }

  /** The ticket for the seat was admitted at a gate at {@code at} (epoch ms). */
  record Scanned(int seat, long at) implements Decision {
    @Override
    public <R> R accept(Cases<R> cases) {
      return cases.scanned(this);
    }
  }
}
