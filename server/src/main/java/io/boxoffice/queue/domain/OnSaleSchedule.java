package io.boxoffice.queue.domain;

import io.boxoffice.common.CborSerializable;

/**
 * An on-sale as an event manager schedules it: when the lobby opens and the sale starts (epoch
 * ms), how many fans are admitted per minute and how many may shop at once, whether a presale
 * code is needed, and the proof-of-work difficulty (0 = none).
 */
public record OnSaleSchedule(long lobbyOpensAt, long startsAt, int admissionPerMinute, int maxActiveShoppers,
                             boolean presale, int powBits) implements CborSerializable {

  public static final int MAX_POW_BITS = 24;

  /** Checks the schedule; throws {@link IllegalArgumentException} with a sentence for a person. */
  public OnSaleSchedule validated() {
    if (startsAt < lobbyOpensAt) throw new IllegalArgumentException("startsAt must not be before lobbyOpensAt");
    if (admissionPerMinute < 1 || admissionPerMinute > 10_000_000) throw new IllegalArgumentException("admissionPerMinute must be 1-10000000");
    if (maxActiveShoppers < 1 || maxActiveShoppers > 10_000_000) throw new IllegalArgumentException("maxActiveShoppers must be 1-10000000");
    if (powBits < 0 || powBits > MAX_POW_BITS) throw new IllegalArgumentException("powBits must be 0-" + MAX_POW_BITS);
    return this;
  }

  /** Times in the past mean "now": both are moved up to {@code now}. */
  public OnSaleSchedule notBefore(long now) {
    return new OnSaleSchedule(Math.max(lobbyOpensAt, now), Math.max(startsAt, now), admissionPerMinute, maxActiveShoppers,
        presale, powBits);
  }

  public OnSaleSchedule withRates(Integer perMinute, Integer maxActive) {
    return new OnSaleSchedule(lobbyOpensAt, startsAt, perMinute != null ? perMinute : admissionPerMinute,
        maxActive != null ? maxActive : maxActiveShoppers, presale, powBits);
  }
}
