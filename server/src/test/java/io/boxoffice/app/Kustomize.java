package io.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The part of kustomize that k8s/ uses, so that tests check what {@code kubectl apply -k} would
 * send (there is no kustomize binary here): {@code resources} (files, and folders holding a
 * kustomization.yaml), {@code images} (newName, newTag, digest) and {@code patches} given by
 * {@code path}, applied as strategic merge patches to the one resource of the same kind, name
 * and namespace. Maps merge key by key (null deletes); lists of objects that all have a
 * {@code name} merge by name, as containers, env and volumes do in Kubernetes; other lists are
 * replaced. Any other field of a kustomization fails the render, so nothing is silently skipped.
 */
final class Kustomize {
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  static final Set<String> SUPPORTED = Set.of("apiVersion", "kind", "resources", "images", "patches");

  /** One rendered object and the file it came from. */
  record Rendered(Path source, ObjectNode object) {}

  private Kustomize() {}

  /** The objects {@code kubectl kustomize dir} would print, in resource order. */
  static List<Rendered> render(Path dir) throws IOException {
    Path file = dir.resolve("kustomization.yaml");
    JsonNode k = YAML.readTree(file.toFile());
    for (Iterator<String> it = k.fieldNames(); it.hasNext(); ) {
      String field = it.next();
      if (!SUPPORTED.contains(field)) throw new IllegalArgumentException(file + ": '" + field + "' is outside the kustomize subset the tests render " + SUPPORTED);
    }
    if (!"Kustomization".equals(k.path("kind").asText())) throw new IllegalArgumentException(file + ": not a Kustomization");
    List<Rendered> out = new ArrayList<>();
    for (JsonNode r : k.path("resources")) {
      Path p = dir.resolve(r.asText()).normalize();
      if (Files.isDirectory(p)) out.addAll(render(p));
      else for (ObjectNode o : read(p)) out.add(new Rendered(p, o));
    }
    for (int i = 0; i < out.size(); i++) {
      for (int j = i + 1; j < out.size(); j++) {
        if (id(out.get(i).object()).equals(id(out.get(j).object()))) {
          throw new IllegalArgumentException(file + ": " + id(out.get(i).object()) + " appears twice");
        }
      }
    }
    for (JsonNode patch : k.path("patches")) {
      if (!patch.has("path") || patch.size() != 1) throw new IllegalArgumentException(file + ": only patches by path are rendered: " + patch);
      Path p = dir.resolve(patch.get("path").asText()).normalize();
      for (ObjectNode change : read(p)) {
        List<Rendered> targets = out.stream().filter(o -> id(o.object()).equals(id(change))).toList();
        if (targets.size() != 1) throw new IllegalArgumentException(p + ": patch " + id(change) + " matches " + targets.size() + " resources");
        merge(targets.get(0).object(), change);
      }
    }
    for (JsonNode image : k.path("images")) {
      for (Rendered o : out) retag(o.object(), image);
    }
    return out;
  }

  static List<ObjectNode> read(Path file) throws IOException {
    List<ObjectNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
      while (it.hasNext()) {
        JsonNode node = it.next();
        if (node == null || node.isNull() || node.isMissingNode() || node.isEmpty()) continue;
        if (!(node instanceof ObjectNode o)) throw new IllegalArgumentException(file + ": a document that is not an object");
        docs.add(o);
      }
    }
    return docs;
  }

  /** kind/namespace/name: what a patch is matched by. */
  static String id(JsonNode o) {
    return o.path("kind").asText() + "/" + o.path("metadata").path("namespace").asText("") + "/" + o.path("metadata").path("name").asText();
  }

  /** Strategic merge, the subset described above. */
  static void merge(ObjectNode target, JsonNode patch) {
    for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode mine = target.get(e.getKey());
      JsonNode theirs = e.getValue();
      if (theirs.isNull()) {
        target.remove(e.getKey());
      } else if (mine instanceof ObjectNode m && theirs.isObject()) {
        merge(m, theirs);
      } else if (mine instanceof ArrayNode m && theirs.isArray() && named(m) && named(theirs)) {
        for (JsonNode element : theirs) {
          ObjectNode same = null;
          for (JsonNode x : m) if (x.get("name").equals(element.get("name"))) same = (ObjectNode) x;
          if (same != null) merge(same, element);
          else m.add(element.deepCopy());
        }
      } else {
        target.set(e.getKey(), theirs.deepCopy());
      }
    }
  }

  static boolean named(JsonNode list) {
    if (list.isEmpty()) return false;
    for (JsonNode x : list) if (!x.isObject() || !x.path("name").isTextual()) return false;
    return true;
  }

  /** The images transformer: every containers[].image / initContainers[].image naming {@code image.name}. */
  static void retag(JsonNode node, JsonNode image) {
    if (node.isArray()) {
      for (JsonNode x : node) retag(x, image);
      return;
    }
    if (!(node instanceof ObjectNode o)) return;
    for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if ((e.getKey().equals("containers") || e.getKey().equals("initContainers")) && e.getValue().isArray()) {
        for (JsonNode c : e.getValue()) {
          if (c instanceof ObjectNode container && container.path("image").isTextual()) {
            String now = container.get("image").asText();
            String replaced = replace(now, image);
            if (!Objects.equals(now, replaced)) container.set("image", TextNode.valueOf(replaced));
          }
        }
      } else {
        retag(e.getValue(), image);
      }
    }
  }

  static String replace(String ref, JsonNode image) {
    String name = ref;
    String tag = "";
    int at = ref.indexOf('@');
    int colon = ref.lastIndexOf(':');
    if (at >= 0) {
      name = ref.substring(0, at);
      tag = ref.substring(at);
    } else if (colon > ref.lastIndexOf('/')) {
      name = ref.substring(0, colon);
      tag = ref.substring(colon);
    }
    if (!name.equals(image.path("name").asText())) return ref;
    if (image.hasNonNull("newName")) name = image.get("newName").asText();
    if (image.hasNonNull("digest")) tag = "@" + image.get("digest").asText();
    else if (image.hasNonNull("newTag")) tag = ":" + image.get("newTag").asText();
    return name + tag;
  }
}
