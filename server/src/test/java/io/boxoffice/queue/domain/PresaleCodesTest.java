package io.boxoffice.queue.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.common.Hmac;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PresaleCodesTest {
  final PresaleCodes codes = new PresaleCodes(new Hmac("presale key presale key presale key".getBytes(StandardCharsets.US_ASCII)));

  @Test
  void anAccountsOwnCodeIsValidForItsEvent() {
    String code = codes.codeFor("eras-2026", "acc-1");
    assertTrue(code.matches("[A-Za-z0-9_-]{16}"), code);
    assertEquals(code, codes.codeFor("eras-2026", "acc-1"));
    assertTrue(codes.valid("eras-2026", "acc-1", code));
  }

  @Test
  void aCodeIsWorthNothingForAnotherAccountOrEvent() {
    String code = codes.codeFor("eras-2026", "acc-1");
    assertFalse(codes.valid("eras-2026", "acc-2", code));
    assertFalse(codes.valid("eras-2027", "acc-1", code));
    assertNotEquals(code, codes.codeFor("eras-2026", "acc-2"));
  }

  @Test
  void eventAndAccountCannotTradeCharacters() {
    assertFalse(codes.valid("e", "1acc", codes.codeFor("e1", "acc")));
    assertFalse(codes.valid("e", "|acc", codes.codeFor("e|", "acc")));
  }

  @Test
  void garbageAndNearMissesAreRefused() {
    String code = codes.codeFor("e1", "acc-1");
    char[] flipped = code.toCharArray();
    flipped[7] = flipped[7] == 'x' ? 'y' : 'x';
    for (String bad : Arrays.asList(null, "", "x", code.substring(1), code + "A", code + " ", " " + code,
        code.toLowerCase().equals(code) ? code.toUpperCase() : code.toLowerCase(), new String(flipped),
        "\u00e9".repeat(16), "AAAAAAAAAAAAAAAA")) {
      assertFalse(codes.valid("e1", "acc-1", bad), "<" + bad + ">");
    }
  }

  @Test
  void codesMadeUnderAnotherKeyAreRefused() {
    PresaleCodes other = new PresaleCodes(new Hmac("some other key, some other key!!".getBytes(StandardCharsets.US_ASCII)));
    assertFalse(codes.valid("e1", "acc-1", other.codeFor("e1", "acc-1")));
  }
}
