package io.boxoffice.edge;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, finding 11, on the server's own TCP binding: a client's connections beyond its cap
 * are closed unanswered while another client is served, and an idle connection is closed after
 * the configured idle timeout.
 */
class HttpServerConnectionsTest {
  static final ActorTestKit testKit = ActorTestKit.create();
  static final int CAP = 3;
  static HttpServer server;
  static PeerConnections peers;

  @BeforeAll
  static void bind() throws Exception {
    peers = new PeerConnections(new PeerConnections.Settings(Duration.ofSeconds(2), CAP, List.of()));
    server = HttpServer.bind(testKit.system(), "127.0.0.1", 0, Duration.ofSeconds(5), peers,
            request -> CompletableFuture.completedFuture(HttpResponse.create().withEntity("ok")))
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() {
    server.terminate(Duration.ofSeconds(1)).toCompletableFuture().join();
    testKit.shutdownTestKit();
  }

  static Socket connect(String from) throws IOException {
    Socket s = new Socket();
    s.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
    s.connect(new InetSocketAddress("127.0.0.1", server.localAddress().getPort()), 2000);
    s.setSoTimeout(5000);
    return s;
  }

  /** The status of one keep-alive request on {@code s}, or -1 when the server closed the connection instead. */
  static int get(Socket s) {
    try {
      s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      InputStream in = s.getInputStream();
      byte[] buf = new byte[4096];
      int n = in.read(buf);
      if (n < 0) return -1;
      String head = new String(buf, 0, n, StandardCharsets.US_ASCII);
      return Integer.parseInt(head.substring(9, 12));
    } catch (IOException e) {
      return -1; // reset
    }
  }

  @Test
  void aClientOverItsCapHasItsNewConnectionClosedWhileAnotherAddressIsServed() throws Exception {
    List<Socket> mine = new ArrayList<>();
    try {
      for (int i = 0; i < CAP; i++) {
        Socket s = connect("127.0.0.1");
        mine.add(s);
        assertEquals(200, get(s), "connection " + (i + 1) + " of " + CAP);
      }
      for (int i = 0; i < 5; i++) {
        try (Socket over = connect("127.0.0.1")) {
          assertEquals(-1, get(over), "a connection over the cap is closed unanswered");
        }
      }
      try (Socket other = connect("127.0.0.2")) {
        assertEquals(200, get(other), "another client is served");
      }
      for (Socket s : mine) assertEquals(200, get(s), "the client's own connections go on");
      mine.remove(0).close();
      await().atMost(Duration.ofSeconds(5)).until(() -> peers.openBy(InetAddress.getByName("127.0.0.1")) == CAP - 1);
      try (Socket again = connect("127.0.0.1")) {
        assertEquals(200, get(again), "a closed connection frees its place");
      }
    } finally {
      for (Socket s : mine) s.close();
    }
  }

  @Test
  void anIdleConnectionIsClosedAfterTheIdleTimeout() throws Exception {
    try (Socket s = connect("127.0.0.3")) {
      assertEquals(200, get(s));
      long started = System.nanoTime();
      int read;
      try {
        read = s.getInputStream().read();
      } catch (java.net.SocketException reset) {
        read = -1; // an idle timeout aborts the connection: a reset, not a FIN
      }
      assertEquals(-1, read, "closed by the server");
      long ms = (System.nanoTime() - started) / 1_000_000;
      assertTrue(ms >= 1500 && ms < 4500, "closed after " + ms + " ms idle");
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> peers.openBy(InetAddress.getByName("127.0.0.3")) == 0);
  }
}
