package io.boxoffice.tickets.domain;

import io.boxoffice.common.CborSerializable;

/** One seat of a sale, with the signed barcode a gate admits once. */
public record Ticket(String ticketId, String eventId, String seatId, String orderId, String barcode) implements CborSerializable {}
