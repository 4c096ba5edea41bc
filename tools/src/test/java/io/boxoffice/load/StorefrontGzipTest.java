package io.boxoffice.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A large seat map is sent only gzipped (issue 31, finding 7): the simulator reads the contract
 * form with {@code Accept-Encoding: gzip}, and Storefront hands it back unzipped.
 */
class StorefrontGzipTest {
  HttpServer server;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/seatmap", x -> {
      byte[] json = "{\"seats\":[{\"seatId\":\"F1-A-1\",\"zone\":\"floor\"}]}".getBytes(StandardCharsets.UTF_8);
      boolean gzip = x.getRequestHeaders().getOrDefault("Accept-Encoding", java.util.List.of()).contains("gzip");
      byte[] body = json;
      if (gzip) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream g = new GZIPOutputStream(out)) {
          g.write(json);
        }
        body = out.toByteArray();
        x.getResponseHeaders().add("Content-Encoding", "gzip");
      }
      x.getResponseHeaders().add("Content-Type", "application/json");
      x.sendResponseHeaders(200, body.length);
      x.getResponseBody().write(body);
      x.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void aGzippedAnswerIsReadUnzippedAndAPlainOneAsItIs() {
    Storefront store = new Storefront(new int[] {server.getAddress().getPort()});
    Storefront.Reply zipped = store.once("seatmap", 0, "GET", "/seatmap", null, Duration.ofSeconds(5), Map.of("Accept-Encoding", "gzip"));
    assertEquals(200, zipped.status());
    assertEquals("F1-A-1", zipped.json().path("seats").get(0).path("seatId").asText());
    Storefront.Reply plain = store.once("seatmap", 0, "GET", "/seatmap", null, Duration.ofSeconds(5), Map.of());
    assertEquals(plain.body(), zipped.body());
  }
}
