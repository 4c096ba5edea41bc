package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A field a request does not have is refused and named as the client wrote it (issue 31, finding 13d). */
class UnknownFieldsTest {
  record Best(Integer quantity, Integer maxPriceCents) {}

  record Hold(List<String> seats, Best best) {}

  record Row(String rowId, int seats) {}

  record Venue(String name, List<Row> rows, Map<String, Integer> prices) {}

  static ObjectMapper strict() {
    ObjectMapper mapper = new ObjectMapper();
    Api.strict(mapper);
    return mapper;
  }

  @Test
  void anUnknownFieldIsRefusedWithItsPath() {
    UnrecognizedPropertyException top = assertThrows(UnrecognizedPropertyException.class,
        () -> strict().readValue("{\"best\":{\"quantity\":1},\"admin\":true}", Hold.class));
    assertEquals("admin", Api.fieldPath(top));
    UnrecognizedPropertyException nested = assertThrows(UnrecognizedPropertyException.class,
        () -> strict().readValue("{\"best\":{\"quantity\":1,\"maxPriceCent\":500}}", Hold.class));
    assertEquals("best.maxPriceCent", Api.fieldPath(nested));
    UnrecognizedPropertyException inList = assertThrows(UnrecognizedPropertyException.class,
        () -> strict().readValue("{\"name\":\"x\",\"rows\":[{\"rowId\":\"A\",\"seats\":2},{\"rowId\":\"B\",\"seats\":2,\"vip\":1}]}", Venue.class));
    assertEquals("rows[1].vip", Api.fieldPath(inList));
  }

  @Test
  void knownFieldsAndAMapsOwnKeysAreAccepted() throws Exception {
    assertEquals(new Best(2, 500), strict().readValue("{\"best\":{\"quantity\":2,\"maxPriceCents\":500}}", Hold.class).best());
    assertEquals(Map.of("floor", 100, "anything", 1),
        strict().readValue("{\"name\":\"x\",\"rows\":[],\"prices\":{\"floor\":100,\"anything\":1}}", Venue.class).prices());
  }
}
