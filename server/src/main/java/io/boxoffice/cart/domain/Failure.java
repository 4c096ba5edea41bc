package io.boxoffice.cart.domain;

/** Why a checkout ended without a sale, spelled as the journal and the snapshots store it. */
public enum Failure {
  /** The inventory refused the sale: the hold had run out, or was not this fan's any more. */
  HOLD_EXPIRED("hold_expired"),
  /** The processor did not answer the authorization; the same key may be used again. */
  PAYMENT_UNAVAILABLE("payment_unavailable"),
  /** The card was declined. */
  PAYMENT_DECLINED("payment_declined");

  private final String code;

  Failure(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  public static Failure ofCode(String code) {
    for (Failure f : values()) if (f.code.equals(code)) return f;
    throw new IllegalArgumentException("no checkout failure is spelled " + code);
  }
}
