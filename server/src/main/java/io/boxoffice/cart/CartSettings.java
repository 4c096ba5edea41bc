package io.boxoffice.cart;

import io.boxoffice.inventory.EventInventory;
import io.boxoffice.payment.PaymentGateway;
import io.boxoffice.tickets.Barcode;
import io.boxoffice.tickets.TicketWallet;
import java.time.Clock;
import java.time.Duration;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.pekko.actor.typed.RecipientRef;

/**
 * What a {@link Cart} needs around it: clock, processor, barcode signer, where inventories and
 * wallets are, and whom to tell that a fan has bought ({@code checkedOut(eventId, accountId)}:
 * the fan's place in line stops counting as an active shopper).
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
    BiConsumer<String, String> checkedOut) {

  /** Nobody to tell of a purchase (an event without a waiting room, or a test of the cart alone). */
  public CartSettings(Clock clock, PaymentGateway payments, Barcode barcodes,
                      Function<String, RecipientRef<EventInventory.Command>> inventories,
                      Function<String, RecipientRef<TicketWallet.Command>> wallets,
                      Duration askTimeout, Duration retryMin, Duration retryMax) {
    this(clock, payments, barcodes, inventories, wallets, askTimeout, retryMin, retryMax, (eventId, accountId) -> { });
  }
}
