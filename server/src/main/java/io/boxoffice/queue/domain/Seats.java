package io.boxoffice.queue.domain;

/** What the event's inventory last said about its seats; {@link #UNKNOWN} until it first answers. */
public record Seats(int available, int held, int sold) {
  public static final Seats UNKNOWN = new Seats(-1, -1, 0);

  /** Every seat is sold: none is free and no hold can come back. */
  public boolean soldOut() {
    return available == 0 && held == 0;
  }

  /** No seat is free to hold now (a hold may still lapse), so nobody new is admitted. */
  public boolean noneToHold() {
    return available == 0;
  }
}
