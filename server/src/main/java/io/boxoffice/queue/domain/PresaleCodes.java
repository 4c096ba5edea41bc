package io.boxoffice.queue.domain;

import io.boxoffice.common.Hmac;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;

/**
 * Presale invitation codes: a short HMAC of (event, account) under the presale key, so a code
 * works only for the account it was sent to, and is checked without any lookup or side service.
 *
 * <p>A code is 16 URL- and cookie-safe characters (96 bits of HMAC-SHA256, base64url). The same
 * key must be configured on every node and kept for as long as invitations are outstanding:
 * a code made under one key is not valid under another.
 */
public final class PresaleCodes {
  private static final String DOMAIN = "pc1";
  private static final int CODE_BYTES = 12;
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  private final Hmac hmac;

  public PresaleCodes(Hmac hmac) {
    this.hmac = hmac;
  }

  /** The invitation code of this account for this event. */
  public String codeFor(String eventId, String accountId) {
    byte[] mac = hmac.sign(MacInput.of(DOMAIN, eventId, accountId));
    return B64.encodeToString(Arrays.copyOf(mac, CODE_BYTES));
  }

  /** Whether {@code code} is this account's code for this event, compared in constant time. */
  public boolean valid(String eventId, String accountId, String code) {
    if (code == null) return false;
    byte[] expected = codeFor(eventId, accountId).getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(expected, code.getBytes(StandardCharsets.UTF_8));
  }
}
