package io.boxoffice.cart;

import io.boxoffice.common.SnapshotPolicy;
import io.boxoffice.common.Tracing;
import io.boxoffice.inventory.EventInventory;
import io.boxoffice.payment.PaymentGateway;
import io.boxoffice.tickets.TicketWallet;
import io.boxoffice.tickets.domain.Barcode;
import java.time.Clock;
import java.time.Duration;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.pekko.actor.typed.RecipientRef;

/**
 * What a {@link Cart} needs around it: clock, processor, barcode signer, where inventories and
 * wallets are, and whom to tell that a fan has bought ({@code checkedOut(eventId, accountId)}:
 * the fan's place in line stops counting as an active shopper) or came to shop
 * ({@code startedShopping(eventId, accountId)}, at the cart's first hold: the place counts as
 * a shopper for its whole window, not only while its fan may still be on the way). The hold timer wakes at the
 * earliest deadline the cart knows of, or after {@code holdRecheck} at the latest to read the
 * clock again (a clock that moved, a deadline heard late); it asks a seat's release only
 * {@code holdReleaseGrace} after the deadline (see {@link io.boxoffice.cart.domain.HoldTimer});
 * {@code metrics} counts its releases; {@code tracing} traces checkouts of traced requests.
 */
public record CartSettings(
    Clock clock,
    PaymentGateway payments,
    Barcode barcodes,
    Function<String, RecipientRef<EventInventory.Command>> inventories,
    Function<String, RecipientRef<TicketWallet.Command>> wallets,
    Duration askTimeout,
    Duration retryMin,
    Duration retryMax,
    BiConsumer<String, String> checkedOut,
    Duration holdRecheck,
    Duration holdReleaseGrace,
    ShopMetrics metrics,
    BiConsumer<String, String> startedShopping,
    SnapshotPolicy snapshots,
    Tracing tracing) {

  /** The hold timer's defaults: a look at the clock every 30 s, releases counted nowhere. */
  public CartSettings(Clock clock, PaymentGateway payments, Barcode barcodes,
                      Function<String, RecipientRef<EventInventory.Command>> inventories,
                      Function<String, RecipientRef<TicketWallet.Command>> wallets,
                      Duration askTimeout, Duration retryMin, Duration retryMax, SnapshotPolicy snapshots,
                      BiConsumer<String, String> checkedOut) {
    this(clock, payments, barcodes, inventories, wallets, askTimeout, retryMin, retryMax, checkedOut,
        Duration.ofSeconds(30), Duration.ZERO, ShopMetrics.NONE, (eventId, accountId) -> { }, snapshots, Tracing.OFF);
  }

  public CartSettings withHoldTimer(Duration recheck, Duration releaseGrace, ShopMetrics counts) {
    return new CartSettings(clock, payments, barcodes, inventories, wallets, askTimeout, retryMin, retryMax, checkedOut,
        recheck, releaseGrace, counts, startedShopping, snapshots, tracing);
  }

  public CartSettings withShoppingStarted(BiConsumer<String, String> started) {
    return new CartSettings(clock, payments, barcodes, inventories, wallets, askTimeout, retryMin, retryMax, checkedOut,
        holdRecheck, holdReleaseGrace, metrics, started, snapshots, tracing);
  }

  /** Checkouts traced: a span per checkout of a traced request, its payment calls and its confirm at the inventory. */
  public CartSettings withTracing(Tracing spans) {
    return new CartSettings(clock, payments, barcodes, inventories, wallets, askTimeout, retryMin, retryMax, checkedOut,
        holdRecheck, holdReleaseGrace, metrics, startedShopping, snapshots, spans);
  }

  /** Nobody to tell of a purchase (an event without a waiting room, or a test of the cart alone). */
  public CartSettings(Clock clock, PaymentGateway payments, Barcode barcodes,
                      Function<String, RecipientRef<EventInventory.Command>> inventories,
                      Function<String, RecipientRef<TicketWallet.Command>> wallets,
                      Duration askTimeout, Duration retryMin, Duration retryMax, SnapshotPolicy snapshots) {
    this(clock, payments, barcodes, inventories, wallets, askTimeout, retryMin, retryMax, snapshots, (eventId, accountId) -> { });
  }
}
