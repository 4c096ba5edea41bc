package io.boxoffice.tickets.http;

import static org.apache.pekko.http.javadsl.server.PathMatchers.segment;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.boxoffice.common.Refusal;
import io.boxoffice.edge.Api;
import io.boxoffice.edge.ApiError;
import io.boxoffice.edge.FanContext;
import io.boxoffice.edge.Identity;
import io.boxoffice.edge.Refusals;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.tickets.Orders;
import io.boxoffice.tickets.TicketWallet;
import io.boxoffice.tickets.domain.Barcode;
import io.boxoffice.tickets.domain.Ticket;
import io.boxoffice.venue.domain.VenueLayout;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.Scheduler;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * A fan's orders and tickets ({@code /api/orders/{id}}, {@code /api/me/tickets}, a ticket's QR
 * code) and the gates' {@code /gate/scan}. A fan's calls take from the account's and the
 * network's rate limits as the shop's do (429 + Retry-After): one token a read, {@code qrCost}
 * a QR code.
 */
public final class TicketRoutes extends AllDirectives {

  /** {@code POST /gate/scan} body: the barcode read, and the event this gate admits to (required). */
  public record ScanRequest(String barcode, String eventId) {}

  /** {@code GET /api/me/tickets}. */
  public record TicketList(List<Ticket> tickets) {}

  /** A gate's scan, admitted: {@code result} is {@code admit}. */
  public record Admit(String result, String eventId, String seatId) {}

  /**
   * A gate's scan, refused: {@code result} and {@code error} name why ({@code invalid},
   * {@code wrong_event}, {@code already_scanned}); the ticket's event, seat and first scan where they help.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record NotAdmitted(String result, String error, String message, String scannedAt, String eventId, String seatId) {
    static NotAdmitted invalid() {
      return new NotAdmitted("invalid", "invalid", "not a ticket of ours", null, null, null);
    }

    static NotAdmitted noEvent() {
      return new NotAdmitted("invalid", "bad_request", "eventId is required: a gate admits to its own event only", null, null, null);
    }

    static NotAdmitted wrongEvent(String eventId) {
      return new NotAdmitted("wrong_event", "wrong_event", "this ticket is for another event", null, eventId, null);
    }

    static NotAdmitted alreadyScanned(long scannedAt, String eventId, String seatId) {
      return new NotAdmitted("already_scanned", "already_scanned", "this ticket was admitted before",
          Instant.ofEpochMilli(scannedAt).toString(), eventId, seatId);
    }
  }

  /** Longer than any barcode we issue (ids are at most 64 characters each); anything longer is not ours. */
  static final int MAX_BARCODE_CHARS = 1024;

  private final Api api;
  private final Identity identity;
  private final FanContext fans;
  private final int qrCost;
  private final Barcode barcodes;
  private final byte[] gateToken;
  private final Orders orders;
  private final Function<String, RecipientRef<TicketWallet.Command>> wallets;
  private final Function<String, RecipientRef<EventInventory.Command>> inventories;
  private final Scheduler scheduler;

  public TicketRoutes(Api api, Identity identity, FanContext fans, int qrCost, Barcode barcodes, String gateToken,
                      Orders orders,
                      Function<String, RecipientRef<TicketWallet.Command>> wallets,
                      Function<String, RecipientRef<EventInventory.Command>> inventories, Scheduler scheduler) {
    this.api = api;
    this.identity = identity;
    this.fans = fans;
    this.qrCost = qrCost;
    this.barcodes = barcodes;
    this.gateToken = gateToken.getBytes(StandardCharsets.UTF_8);
    this.orders = orders;
    this.wallets = wallets;
    this.inventories = inventories;
    this.scheduler = scheduler;
  }

  public Route routes() {
    return concat(
        path(segment("api").slash("orders").slash(segment()), orderId -> get(() -> fan(1, a -> order(a, orderId)))),
        path(segment("api").slash("me").slash("tickets"), () -> get(() -> fan(1, this::tickets))),
        path(segment("api").slash("me").slash("tickets").slash(segment()).slash("qr"),
            ticketId -> get(() -> fan(qrCost, a -> qr(a, ticketId)))),
        path(segment("gate").slash("scan"), () -> post(() -> gate(() -> api.body(ScanRequest.class, this::scan)))));
  }

  /** The signed-in fan (401 otherwise) within the account's and the network's limits, taking {@code cost} tokens (429 otherwise). */
  private Route fan(int cost, Function<String, Route> inner) {
    return identity.account(account -> fans.prefix(prefix -> fans.limited(account, prefix, cost, () -> inner.apply(account))));
  }

  /** Only the owner of an order gets an answer, everyone else 404. */
  private Route order(String account, String orderId) {
    CompletionStage<HttpResponse> response = orders.find(account, orderId)
        .thenApply(order -> order.map(body -> api.json(200, body)).orElseGet(() -> api.error(404, "not_found", "no such order")));
    return api.respond(response);
  }

  private Route tickets(String account) {
    CompletionStage<HttpResponse> response = AskPattern
        .<TicketWallet.Command, TicketWallet.Tickets>ask(wallets.apply(account), TicketWallet.GetTickets::new, api.askTimeout(), scheduler)
        .thenApply(t -> api.json(200, new TicketList(t.tickets())));
    return api.respond(response);
  }

  /** The ticket's barcode as a QR code (PNG), for the ticket's owner only: 404 for anyone else, as for an unknown ticket. */
  private Route qr(String account, String ticketId) {
    if (ticketId.isEmpty() || ticketId.length() > 128) return complete(api.error(404, "not_found", "no such ticket"));
    CompletionStage<HttpResponse> response = AskPattern
        .<TicketWallet.Command, TicketWallet.Tickets>ask(wallets.apply(account), TicketWallet.GetTickets::new, api.askTimeout(), scheduler)
        .thenApply(t -> t.tickets().stream().filter(ticket -> ticket.ticketId().equals(ticketId)).findFirst()
            .map(ticket -> HttpResponse.create().withStatus(200)
                .withEntity(org.apache.pekko.http.javadsl.model.ContentTypes.create(
                    org.apache.pekko.http.javadsl.model.MediaTypes.IMAGE_PNG), TicketQr.png(ticket.barcode()))
                .addHeader(org.apache.pekko.http.javadsl.model.headers.RawHeader.create("Cache-Control", "private, no-store")))
            .orElseGet(() -> api.error(404, "not_found", "no such ticket")));
    return api.respond(response);
  }

  private Route gate(java.util.function.Supplier<Route> inner) {
    return optionalHeaderValueByName("Authorization", header -> {
      String value = header.orElse("");
      if (!value.startsWith("Bearer ")) return complete(api.error(401, "unauthenticated", "a gate bearer token is required"));
      if (!MessageDigest.isEqual(value.substring(7).trim().getBytes(StandardCharsets.UTF_8), gateToken)) {
        return complete(api.error(403, "forbidden", "wrong gate token"));
      }
      return inner.get();
    });
  }

  private Route scan(ScanRequest r) {
    // One gate token serves every gate: without its event a scan could admit any event's ticket.
    if (r.eventId() == null) return complete(api.json(400, NotAdmitted.noEvent()));
    if (!VenueLayout.isValidEntityId(r.eventId())) {
      return complete(api.error(400, "bad_request", "eventId must be 1-64 letters, digits, '_' or '-'"));
    }
    Barcode.TicketRef ticket = r.barcode() == null || r.barcode().length() > MAX_BARCODE_CHARS ? null : barcodes.verify(r.barcode());
    if (ticket == null) return complete(invalid());
    // A gate admits to its own event only: another event's ticket is refused and stays unused.
    if (!r.eventId().equals(ticket.eventId())) {
      return complete(api.json(409, NotAdmitted.wrongEvent(ticket.eventId())));
    }
    CompletionStage<HttpResponse> response = AskPattern
        .<EventInventory.Command, EventInventory.Reply>ask(inventories.apply(ticket.eventId()),
            ref -> new EventInventory.Scan(ticket.seatId(), ticket.orderId(), ref), api.askTimeout(), scheduler)
        .thenApply(reply -> {
          if (reply instanceof EventInventory.Admitted) {
            return api.json(200, new Admit("admit", ticket.eventId(), ticket.seatId()));
          }
          if (reply instanceof EventInventory.AlreadyScanned s) {
            return api.json(409, NotAdmitted.alreadyScanned(s.scannedAt(), ticket.eventId(), ticket.seatId()));
          }
          if (reply instanceof EventInventory.Rejected rej && (rej.code() == Refusal.BUSY || rej.code() == Refusal.UNAVAILABLE)) {
            throw Refusals.toApiError(rej.code(), rej.message(), List.of());
          }
          return invalid();
        });
    return api.respond(response);
  }

  private HttpResponse invalid() {
    return api.json(400, NotAdmitted.invalid());
  }
}
