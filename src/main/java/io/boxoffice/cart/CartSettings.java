package io.boxoffice.cart;

import io.boxoffice.inventory.EventInventory;
import io.boxoffice.payment.PaymentGateway;
import io.boxoffice.tickets.Barcode;
import io.boxoffice.tickets.TicketWallet;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;
import org.apache.pekko.actor.typed.RecipientRef;

/** What a {@link Cart} needs around it: clock, processor, barcode signer, and where inventories and wallets are. */
public record CartSettings(
    Clock clock,
    PaymentGateway payments,
    Barcode barcodes,
    Function<String, RecipientRef<EventInventory.Command>> inventories,
    Function<String, RecipientRef<TicketWallet.Command>> wallets,
    Duration askTimeout,
    Duration retryMin,
    Duration retryMax) {}
