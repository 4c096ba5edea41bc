package io.boxoffice.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A JSON body's shape on the wire, as text: its field names in the order they were written, each
 * value replaced by its kind ({@code "string"}, {@code "int"}, {@code "float"}, {@code "boolean"},
 * {@code "null"}), objects and arrays kept (an array as the distinct shapes of its items). Two bodies
 * with the same shape differ only in values; a field renamed, reordered, dropped, added, turned
 * null or turned into another kind changes it.
 */
public final class WireShape {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private WireShape() {}

  public static String of(String body) {
    try {
      return shape(HttpFan.JSON.readTree(body)).toString();
    } catch (Exception e) {
      throw new AssertionError("not JSON: " + body, e);
    }
  }

  private static JsonNode shape(JsonNode node) {
    if (node.isObject()) {
      ObjectNode out = NODES.objectNode();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        out.set(f.getKey(), shape(f.getValue()));
      }
      return out;
    }
    if (node.isArray()) {
      Set<String> seen = new LinkedHashSet<>();
      ArrayNode out = NODES.arrayNode();
      for (JsonNode item : node) {
        JsonNode s = shape(item);
        if (seen.add(s.toString())) out.add(s);
      }
      return out;
    }
    if (node.isTextual()) return NODES.textNode("string");
    if (node.isIntegralNumber()) return NODES.textNode("int");
    if (node.isNumber()) return NODES.textNode("float");
    if (node.isBoolean()) return NODES.textNode("boolean");
    if (node.isNull()) return NODES.textNode("null");
    throw new AssertionError("no shape for " + node.getNodeType());
  }
}
