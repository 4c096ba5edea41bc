package io.boxoffice.cart.domain;

import io.boxoffice.common.Refusal;
import io.boxoffice.tickets.domain.Ticket;
import java.util.List;

/** What a fan is told about a checkout: the order as it stands, or a refusal. */
public sealed interface Answer {

  /** The order: paid with its tickets, or pending (no tickets yet) while the saga runs. */
  record Placed(String orderId, String eventId, Status status, long amountCents, List<Ticket> tickets)
      implements Answer {}

  /** A refusal: a refusal of the cart's, or the inventory's passed on; {@code seatIds} where it helps. */
  record Refused(Refusal code, String message, List<String> seatIds) implements Answer {
    public static Refused of(Refusal refusal, String message) {
      return new Refused(refusal, message, List.of());
    }
  }

  /** An order's status, with its spelling in the contract's order body. */
  enum Status {
    PAID("paid"),
    PENDING("pending");

    private final String code;

    Status(String code) {
      this.code = code;
    }

    public String code() {
      return code;
    }
  }
}
