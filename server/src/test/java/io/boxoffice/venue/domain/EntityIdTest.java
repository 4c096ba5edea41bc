package io.boxoffice.venue.domain;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The ids that may name a venue or an event: they become parts of persistence ids and paths. */
class EntityIdTest {

  @Test
  void lettersDigitsUnderscoresAndDashesUpTo64() {
    assertTrue(VenueLayout.isValidEntityId("a"));
    assertTrue(VenueLayout.isValidEntityId("Tour-2027_Wembley-01"));
    assertTrue(VenueLayout.isValidEntityId("0123456789_-azAZ"));
    assertTrue(VenueLayout.isValidEntityId("x".repeat(64)));
  }

  @Test
  void anythingElseIsRefused() {
    for (String bad : new String[] {null, "", "x".repeat(65), "a b", "a/b", "a.b", "a|b", "a%2Fb", "a\u0000b", "ä",
        "a\nb", "e\u0660", "\uff41", "a:b", "-".repeat(65), "a@b", "`", "{", "[", "/"}) {
      assertFalse(VenueLayout.isValidEntityId(bad), "refused: " + bad);
    }
  }
}
