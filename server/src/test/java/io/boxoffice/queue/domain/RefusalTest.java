package io.boxoffice.queue.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The room's refusal codes travel between nodes and reach clients: they never change. */
class RefusalTest {
  @Test
  void theCodesNeverChange() {
    assertEquals(Map.of("EVENT_EXISTS", "event_exists", "ALREADY_SCHEDULED", "already_scheduled",
            "ALREADY_STARTED", "already_started", "NOT_FOUND", "not_found", "NOT_ON_SALE", "not_on_sale",
            "NOT_OPEN", "not_open", "STARTED", "started", "NOT_STARTED", "not_started",
            "PLACE_GIVEN_UP", "place_given_up"),
        Arrays.stream(Refusal.values()).collect(Collectors.toMap(Refusal::name, Refusal::code)));
  }

  @Test
  void aCodeReadsBackAsItsRefusalAndAnyOtherAsNone() {
    for (Refusal r : Refusal.values()) assertEquals(Optional.of(r), Refusal.fromCode(r.code()));
    assertEquals(Optional.empty(), Refusal.fromCode("unavailable"));
    assertEquals(Optional.empty(), Refusal.fromCode(null));
  }
}
