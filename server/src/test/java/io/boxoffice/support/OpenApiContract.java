package io.boxoffice.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialects;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * An OpenAPI 3.1 document held against real answers: which operation a request is, whether the
 * answer's status is documented for it, and whether its JSON body fits the documented schema
 * (JSON Schema 2020-12, formats asserted). Remembers the operations and statuses it has seen.
 */
public final class OpenApiContract {
  private static final String DOC_URI = "https://boxoffice.invalid/openapi.json";
  private static final Set<String> METHODS = Set.of("get", "post", "put", "patch", "delete");

  /** One documented operation, as {@code "POST /api/events/{eventId}/queue"}. */
  public record Operation(String method, String template) {
    @Override
    public String toString() {
      return method.toUpperCase() + " " + template;
    }
  }

  private final JsonNode document;
  private final SchemaRegistry schemas;
  private final Map<Pattern, String> templates = new LinkedHashMap<>();
  private final Map<String, Schema> compiled = new ConcurrentHashMap<>();
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final Map<JsonNode, String> schemaNames = new java.util.IdentityHashMap<>();

  public OpenApiContract(JsonNode document) {
    this.document = document;
    // Each JSON body schema gets a name under components/schemas of the copy the validator reads,
    // so that it is reached by a plain pointer and its $refs resolve against the whole document.
    com.fasterxml.jackson.databind.node.ObjectNode named = document.deepCopy();
    com.fasterxml.jackson.databind.node.ObjectNode components = named.with("components").with("schemas");
    List<JsonNode> bodies = new ArrayList<>();
    document.path("paths").forEach(p -> p.forEach(op -> op.path("responses").forEach(r -> bodies.add(r))));
    document.path("components").path("responses").forEach(bodies::add);
    for (JsonNode response : bodies) {
      // A JSON body's schema, and the schema of each event's data in a text/event-stream.
      for (JsonNode schema : new JsonNode[] {
          response.path("content").path("application/json").get("schema"),
          response.path("content").path("text/event-stream").get("x-data-schema")}) {
        if (schema == null || schemaNames.containsKey(schema)) continue;
        String name = "x-checked-" + schemaNames.size();
        schemaNames.put(schema, name);
        components.set(name, schema);
      }
    }
    this.schemas = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi31(), b -> b
        .schemas(Map.of(DOC_URI, named.toString()))
        .schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
    for (Iterator<String> it = document.path("paths").fieldNames(); it.hasNext(); ) {
      String template = it.next();
      StringBuilder regex = new StringBuilder("^");
      for (String segment : template.substring(1).split("/", -1)) {
        regex.append('/').append(segment.startsWith("{") ? "[^/]+" : Pattern.quote(segment));
      }
      templates.put(Pattern.compile(regex.append('$').toString()), template);
    }
  }

  /** Every documented operation. */
  public Set<Operation> operations() {
    Set<Operation> all = new java.util.LinkedHashSet<>();
    document.path("paths").fields().forEachRemaining(p -> p.getValue().fieldNames().forEachRemaining(m -> {
      if (METHODS.contains(m)) all.add(new Operation(m, p.getKey()));
    }));
    return all;
  }

  /** The documented path a concrete path is, preferring literal segments over parameters. */
  public String template(String path) {
    String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
    String best = null;
    for (Map.Entry<Pattern, String> t : templates.entrySet()) {
      if (!t.getKey().matcher(bare).matches()) continue;
      if (best == null || params(t.getValue()) < params(best)) best = t.getValue();
    }
    return best;
  }

  private static long params(String template) {
    return template.chars().filter(c -> c == '{').count();
  }

  /**
   * What is wrong with this answer to {@code method path} by the document: nothing (an empty
   * list), an undocumented operation or status, a media type not documented for that status, or
   * the body's schema violations.
   */
  public List<String> problems(String method, String path, int status, String contentType, String body) {
    List<String> problems = new ArrayList<>();
    String template = template(path);
    JsonNode operation = template == null ? null : document.path("paths").path(template).get(method.toLowerCase());
    if (operation == null) {
      problems.add(method + " " + path + " is not a documented operation");
      return problems;
    }
    String where = method + " " + template + " " + status;
    JsonNode response = operation.path("responses").get(String.valueOf(status));
    if (response == null) {
      problems.add(where + ": status not documented for this operation");
      return problems;
    }
    seen.add(new Operation(method.toLowerCase(), template) + " " + status);
    if (response.has("$ref")) response = resolve(response.get("$ref").asText());
    JsonNode content = response.path("content");
    boolean hasBody = body != null && !body.isEmpty();
    if (!hasBody) {
      if (content.size() > 0 && status != 304) problems.add(where + ": documented with a body, answered without");
      return problems;
    }
    String mediaType = contentType == null ? "" : contentType.split(";")[0].trim().toLowerCase();
    JsonNode media = content.get(mediaType);
    if (media == null) {
      problems.add(where + ": media type " + mediaType + " not documented (documented: " + content.properties().stream().map(Map.Entry::getKey).toList() + ")");
      return problems;
    }
    if (!mediaType.equals("application/json")) return problems;
    JsonNode value;
    try {
      value = HttpFan.JSON.readTree(body);
    } catch (Exception e) {
      problems.add(where + ": body is not JSON: " + body);
      return problems;
    }
    for (Error e : schema(media.path("schema")).validate(value)) problems.add(where + ": " + e + " in " + abbreviate(body));
    return problems;
  }

  /**
   * What is wrong with a {@code text/event-stream} answer whose first event carried {@code data}:
   * as {@link #problems}, then the data against the status's {@code x-data-schema}.
   */
  public List<String> streamProblems(String method, String path, int status, String contentType, String data) {
    List<String> problems = problems(method, path, status, contentType, data);
    if (!problems.isEmpty() || status != 200) return problems;
    JsonNode schema = document.path("paths").path(template(path)).path(method.toLowerCase()).path("responses")
        .path(String.valueOf(status)).path("content").path("text/event-stream").get("x-data-schema");
    if (schema == null) {
      problems.add(method + " " + path + ": no x-data-schema for its events");
      return problems;
    }
    try {
      for (Error e : schema(schema).validate(HttpFan.JSON.readTree(data))) problems.add(method + " " + path + " event data: " + e);
    } catch (Exception e) {
      problems.add(method + " " + path + ": event data is not JSON: " + data);
    }
    return problems;
  }

  /** A schema node of the document, its {@code $ref}s resolved against the whole document. */
  private Schema schema(JsonNode node) {
    String name = schemaNames.get(node);
    if (name == null) throw new IllegalArgumentException("not a response body schema of the document: " + node);
    return compiled.computeIfAbsent(name, key -> schemas.getSchema(SchemaLocation.of(DOC_URI + "#/components/schemas/" + name)));
  }

  private JsonNode resolve(String ref) {
    return document.at(ref.substring(1));
  }

  /** The operations and statuses answered so far, as {@code "post /api/accounts 201"}. */
  public Set<String> seen() {
    return new TreeSet<>(seen);
  }

  /** The operations answered so far with a documented status. */
  public Set<Operation> covered() {
    Set<Operation> covered = new java.util.LinkedHashSet<>();
    for (String s : seen) {
      String[] parts = s.split(" ");
      covered.add(new Operation(parts[0].toLowerCase(), parts[1]));
    }
    return covered;
  }

  private static String abbreviate(String body) {
    return body.length() > 300 ? body.substring(0, 300) + "..." : body;
  }
}
