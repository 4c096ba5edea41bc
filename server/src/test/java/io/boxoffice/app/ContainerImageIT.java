package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The image Jib builds ({@code mvn verify}: server/target/jib-image.tar, FROM scratch, see
 * server/pom.xml), read as a container runtime would: its config (user, entrypoint, ports,
 * fixed creation time) and its layers (dependencies apart from our classes).
 */
class ContainerImageIT {
  static final ObjectMapper JSON = new ObjectMapper();

  /** One tar entry: name, modification time (seconds) and content. */
  record Entry(String name, long mtime, byte[] content) {}

  static Map<String, Entry> image;
  static JsonNode config;
  /** Per layer (in order), Jib's name for it (history comment) and its entries. */
  static Map<String, List<Entry>> layers = new LinkedHashMap<>();

  @BeforeAll
  static void read() throws IOException {
    Path tar = Path.of(System.getProperty("image.tar", "server/target/jib-image.tar"));
    assertTrue(Files.isRegularFile(tar), tar + " missing: jib:buildTar runs in pre-integration-test");
    try (InputStream in = Files.newInputStream(tar)) {
      image = untar(in);
    }
    JsonNode manifest = JSON.readTree(image.get("manifest.json").content()).get(0);
    config = JSON.readTree(image.get(manifest.get("Config").asText()).content());
    List<String> comments = new ArrayList<>();
    for (JsonNode h : config.path("history")) {
      if (!h.path("empty_layer").asBoolean(false)) comments.add(h.path("comment").asText(h.path("created_by").asText()));
    }
    JsonNode files = manifest.get("Layers");
    assertEquals(files.size(), comments.size(), "one history entry per layer: " + config.path("history"));
    for (int i = 0; i < files.size(); i++) {
      try (InputStream layer = new GZIPInputStream(new ByteArrayInputStream(image.get(files.get(i).asText()).content()))) {
        layers.put(comments.get(i), new ArrayList<>(untar(layer).values()));
      }
    }
  }

  /** A plain ustar reader: 512-byte headers, octal sizes, the prefix field for long names. */
  static Map<String, Entry> untar(InputStream in) throws IOException {
    Map<String, Entry> out = new LinkedHashMap<>();
    byte[] header = new byte[512];
    String longName = null;
    while (in.readNBytes(header, 0, 512) == 512) {
      if (header[0] == 0) break;
      String name = field(header, 0, 100);
      String prefix = field(header, 345, 155);
      if (!prefix.isEmpty()) name = prefix + "/" + name;
      long size = Long.parseLong(field(header, 124, 12).trim().isEmpty() ? "0" : field(header, 124, 12).trim(), 8);
      long mtime = Long.parseLong(field(header, 136, 12).trim().isEmpty() ? "0" : field(header, 136, 12).trim(), 8);
      byte type = header[156];
      byte[] content = in.readNBytes((int) size);
      in.readNBytes((int) ((512 - size % 512) % 512));
      if (type == 'L') {
        longName = new String(content, StandardCharsets.UTF_8).replace("\0", "");
        continue;
      }
      if (longName != null) {
        name = longName;
        longName = null;
      }
      out.put(name, new Entry(name, mtime, content));
    }
    return out;
  }

  static String field(byte[] header, int offset, int length) {
    int end = offset;
    while (end < offset + length && header[end] != 0) end++;
    return new String(header, offset, end - offset, StandardCharsets.US_ASCII);
  }

  static List<String> names(String layer) {
    assertTrue(layers.containsKey(layer), "no layer '" + layer + "' in " + layers.keySet());
    return layers.get(layer).stream().map(Entry::name).toList();
  }

  @Test
  void runsAsTheNonRootUserOfTheManifests() {
    assertEquals("10001:10001", config.path("config").path("User").asText());
  }

  @Test
  void exposesHttpManagementAndRemoting() {
    assertEquals(new TreeSet<>(List.of("8080/tcp", "8558/tcp", "25520/tcp")),
        ports());
  }

  @Test
  void startsJavaOnTheMainClassWhoseClassIsInTheImage() {
    List<String> entrypoint = new ArrayList<>();
    config.path("config").path("Entrypoint").forEach(e -> entrypoint.add(e.asText()));
    assertFalse(entrypoint.isEmpty(), "an entrypoint, so the pods need no command");
    assertEquals("java", entrypoint.get(0), entrypoint.toString());
    assertEquals(Main.class.getName(), entrypoint.get(entrypoint.size() - 1), entrypoint.toString());
    assertTrue(names("classes").contains("app/classes/io/boxoffice/app/Main.class"), "Main in the classes layer");
    assertTrue(names("resources").contains("app/resources/application.conf"), "conf/ in the resources layer");
  }

  @Test
  void dependenciesHaveTheirOwnLayerAndOurCodeNone() {
    List<String> deps = names("dependencies").stream().filter(n -> n.endsWith(".jar")).toList();
    assertTrue(deps.stream().anyMatch(n -> n.matches("app/libs/pekko-actor_2\\.13-.*\\.jar")), "Pekko among the dependencies: " + deps.size());
    assertTrue(names("dependencies").stream().noneMatch(n -> n.endsWith(".class")), "no loose classes with the dependencies");
    assertTrue(names("classes").stream().noneMatch(n -> n.endsWith(".jar")), "no jar with our classes");
    assertTrue(deps.stream().noneMatch(n -> n.contains("junit") || n.contains("selenium") || n.contains("fabric8")), "no test libraries");
  }

  @Test
  void isReproducibleFixedTimesEverywhere() {
    assertEquals("1970-01-01T00:00:00Z", config.path("created").asText());
    for (var layer : layers.entrySet()) {
      for (Entry e : layer.getValue()) {
        assertEquals(1, e.mtime(), layer.getKey() + ": " + e.name() + " carries a build time");
      }
    }
  }

  static TreeSet<String> ports() {
    TreeSet<String> out = new TreeSet<>();
    config.path("config").path("ExposedPorts").fieldNames().forEachRemaining(out::add);
    return out;
  }
}
