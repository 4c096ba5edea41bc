package io.boxoffice.queue.domain;

/**
 * Where an event's on-sale stands, as every edge node and fan sees it in the manifest's
 * {@code state}. {@link #wire()} is that string: it is in manifests sent between nodes and in
 * the HTTP contract, so it never changes.
 */
public enum Phase {
  /** Never defined: nothing is published. */
  UNKNOWN("unknown"),
  /** Defined, neither scheduled nor opened: nobody may join or shop. */
  CLOSED("closed"),
  /** Opened without a waiting room: everyone signed in may shop. */
  OPEN("open"),
  /** Scheduled, before the lobby opens. */
  SCHEDULED("scheduled"),
  /** The lobby is open, the sale has not started: joins get a lobby index. */
  LOBBY("lobby"),
  /** The sale started and the line moves. */
  WAITING("waiting"),
  /** The sale started and nobody new is admitted. */
  PAUSED("paused"),
  /** Every seat is sold. */
  SOLD_OUT("sold_out");

  private final String wire;

  Phase(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  /** The phase a manifest names; a string this node does not know (a newer node's) reads as {@link #UNKNOWN}. */
  public static Phase fromWire(String wire) {
    for (Phase p : values()) {
      if (p.wire.equals(wire)) return p;
    }
    return UNKNOWN;
  }

  /**
   * The room's phase at {@code now}. Once fans may shop (an open sale, or a started one), a sale
   * with nothing left to sell is sold out, paused or not.
   */
  public static Phase of(RoomState room, boolean soldOut, long now) {
    if (!room.defined()) return UNKNOWN;
    if (room.open()) return soldOut ? SOLD_OUT : OPEN;
    if (room.schedule() == null) return CLOSED;
    if (now < room.schedule().lobbyOpensAt()) return SCHEDULED;
    if (!room.started()) return LOBBY;
    if (soldOut) return SOLD_OUT;
    return room.paused() ? PAUSED : WAITING;
  }
}
