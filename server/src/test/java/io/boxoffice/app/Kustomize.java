package io.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code kubectl apply -k dir} sends: the real {@code kubectl kustomize dir} (kustomize v5,
 * installed by .ci/run), so the tests check exactly what reaches the cluster, generators
 * (configMapGenerator's hashed names), components and name suffixes included. It replaced a
 * Java re-implementation of the subset k8s/ used, which could not follow the generators.
 */
final class Kustomize {
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** One rendered object and the kustomization (or file) it came from. */
  record Rendered(Path source, ObjectNode object) {}

  private Kustomize() {}

  /** The objects {@code kubectl kustomize dir} prints. */
  static List<Rendered> render(Path dir) throws IOException {
    String yaml;
    try {
      yaml = Tools.kustomize(dir);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    List<Rendered> out = new ArrayList<>();
    for (ObjectNode o : parse(yaml, dir.toString())) out.add(new Rendered(dir, o));
    return out;
  }

  static List<ObjectNode> read(Path file) throws IOException {
    return parse(java.nio.file.Files.readString(file), file.toString());
  }

  static List<ObjectNode> parse(String yaml, String where) throws IOException {
    List<ObjectNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml)) {
      while (it.hasNext()) {
        JsonNode node = it.next();
        if (node == null || node.isNull() || node.isMissingNode() || node.isEmpty()) continue;
        if (!(node instanceof ObjectNode o)) throw new IllegalArgumentException(where + ": a document that is not an object");
        docs.add(o);
      }
    }
    return docs;
  }

  /** kind/namespace/name. */
  static String id(JsonNode o) {
    return o.path("kind").asText() + "/" + o.path("metadata").path("namespace").asText("") + "/" + o.path("metadata").path("name").asText();
  }
}
