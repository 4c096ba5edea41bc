package io.boxoffice.edge;

import static org.apache.pekko.http.javadsl.server.PathMatchers.segment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * {@code GET /api/openapi.json}: the OpenAPI document of the public API, public and cacheable.
 * It is written by hand in YAML ({@value #RESOURCE}, where comments and a readable diff are
 * possible) and turned into JSON once, at start; a document that does not parse stops the node.
 */
public final class OpenApiRoutes extends AllDirectives {
  public static final String RESOURCE = "openapi/openapi.yaml";

  private final HttpResponse document;

  public OpenApiRoutes() {
    byte[] json = toJson(RESOURCE);
    this.document = HttpResponse.create()
        .withEntity(ContentTypes.APPLICATION_JSON, json)
        .addHeader(RawHeader.create("Cache-Control", "public, max-age=3600"));
  }

  /** The document as JSON bytes. */
  public static byte[] toJson(String resource) {
    try (InputStream in = OpenApiRoutes.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) throw new IllegalStateException("missing resource " + resource);
      JsonNode tree = new YAMLMapper().readTree(in);
      return new ObjectMapper().writeValueAsBytes(tree);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }

  public Route routes() {
    return path(segment("api").slash("openapi.json"), () -> get(() -> complete(document)));
  }
}
