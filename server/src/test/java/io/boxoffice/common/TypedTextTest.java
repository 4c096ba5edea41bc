package io.boxoffice.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.boxoffice.inventory.domain.EventDefinition;
import io.boxoffice.venue.domain.StadiumGenerator;
import io.boxoffice.venue.domain.VenueLayout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Names people type (venues, events) carry printable characters only (DESIGN invariant 14; issue 31, finding 6). */
class TypedTextTest {
  static final List<String> UNPRINTABLE = List.of("a\u0000b", "Hall\n", "\tHall", "Hall\u0007", "Hall\u001b[31m", "a\u007fb",
      "a\u0085b", "a\u200bb", "evil\u202etxt", "a\u2028b", "a\u2029b", "a\ufeffb", "a\ud800b", "a\ue000b", "a\u0378b");

  @Test
  void ordinaryNamesInAnyScriptArePrintable() {
    for (String ok : List.of("Hall", "Wembley Stadium", "Zénith d'Auvergne", "東京ドーム", "Köln – Lanxess Arena", "Show 🎸 2027",
        "AC/DC: \"Live\" & <friends>")) {
      assertTrue(TypedText.printable(ok), ok);
      assertEquals(ok, TypedText.name("name", ok, 200));
    }
  }

  @Test
  void controlFormatSeparatorSurrogateAndPrivateUseCharactersAreNot() {
    for (String bad : UNPRINTABLE) {
      assertFalse(TypedText.printable(bad), bad);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TypedText.name("name", bad, 200));
      assertEquals("name must not contain control or invisible characters", e.getMessage());
    }
  }

  @Test
  void aVenueOrEventNamedWithAControlCharacterIsRefusedWhereItIsDefined() {
    for (String bad : UNPRINTABLE) {
      assertThrows(IllegalArgumentException.class, () -> StadiumGenerator.generate("v1", bad, 100).validated(), bad);
      VenueLayout venue = StadiumGenerator.generate("v1", "Hall", 100).validated();
      assertThrows(IllegalArgumentException.class,
          () -> new EventDefinition("e1", bad, venue, prices(), 480, 90, 8).validated(), bad);
    }
    VenueLayout venue = StadiumGenerator.generate("v1", "Hall", 100).validated();
    new EventDefinition("e1", "Show", venue, prices(), 480, 90, 8).validated();
    Map<String, Integer> poisoned = new java.util.HashMap<>(prices());
    poisoned.put("floor\u0000", 1);
    assertThrows(IllegalArgumentException.class, () -> new EventDefinition("e1", "Show", venue, poisoned, 480, 90, 8).validated(),
        "a price's zone key is kept in the journal: it is checked too");
  }

  private static Map<String, Integer> prices() {
    return Map.of("floor", 100, "lower", 50, "upper", 20);
  }
}
