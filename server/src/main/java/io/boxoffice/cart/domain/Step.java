package io.boxoffice.cart.domain;

/** Where a checkout stands. Snapshots store it by name: rename no constant. */
public enum Step {
  /** Authorization asked for. */
  STARTED,
  /** Money set aside; the sale is being confirmed. */
  AUTHORIZED,
  /** The sale is recorded and tickets issued; capture under way. */
  SOLD,
  /** Paid: final. */
  CAPTURED,
  /** The card was declined: final, nothing set aside. */
  DECLINED,
  /** The sale was refused (hold expired) or the processor failed; the void is under way. */
  VOIDING,
  /** Nothing charged: final. */
  VOIDED
}
