package io.boxoffice.hostile;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.boxoffice.app.Node;
import io.boxoffice.support.MutableClock;
import io.boxoffice.support.TestNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, finding 4: a request head dribbled a byte at a time no longer holds a connection (and
 * a share of max-connections) for ever; it is closed once its head takes longer than
 * boxoffice.http.header-read-timeout (2 s here), on any request of a keep-alive connection.
 * Honest keep-alive, pipelined requests and slow bodies are not cut.
 */
class SlowHeadersTest {
  static final long DEADLINE_MS = 2_000;
  static final long MARGIN_MS = 1_500;
  static Node node;

  @BeforeAll
  static void start() throws Exception {
    node = TestNode.postgres(new MutableClock(Instant.parse("2026-12-01T10:00:00Z")), TestNode.payments(),
        ConfigFactory.parseString("boxoffice.http.header-read-timeout = 2s"));
  }

  @AfterAll
  static void stop() {
    if (node != null) node.stop();
  }

  @Test
  void aDribbledHeadIsCutWithinTheDeadline() throws Exception {
    try (Socket socket = connect()) {
      long cutAfter = dribbleUntilClosed(socket, "GET /api/nope HTTP/1.1\r\nHost: boxoffice\r\nX-Slow: "
          + "a".repeat(60) + "\r\n\r\n");
      System.out.println("a dribbled first head was cut after " + cutAfter + " ms");
      assertTrue(cutAfter >= DEADLINE_MS - 300 && cutAfter <= DEADLINE_MS + MARGIN_MS,
          "cut after " + cutAfter + " ms, deadline " + DEADLINE_MS + " ms");
    }
  }

  @Test
  void aDribbledSecondHeadOnAKeepAliveConnectionIsCutToo() throws Exception {
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      out.write(get("/api/nope").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertTrue(readResponse(socket.getInputStream()) > 0, "the first request is answered");
      long cutAfter = dribbleUntilClosed(socket, "GET /api/nope HTTP/1.1\r\nHost: boxoffice\r\nX-Slow: "
          + "b".repeat(60) + "\r\n\r\n");
      System.out.println("a dribbled second head was cut after " + cutAfter + " ms");
      assertTrue(cutAfter >= DEADLINE_MS - 300 && cutAfter <= DEADLINE_MS + MARGIN_MS,
          "cut after " + cutAfter + " ms, deadline " + DEADLINE_MS + " ms");
    }
  }

  @Test
  void anHonestKeepAliveConnectionIsAnsweredAfterAPauseLongerThanTheDeadline() throws Exception {
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      out.write(get("/api/nope").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertEquals(404, readResponse(in));
      // The fan reads the page for a while (over the head deadline, under idle-timeout): the
      // connection between two requests is idle, not a slow head, and is left open all along.
      await("the idle connection left open past the head deadline").during(Duration.ofMillis(DEADLINE_MS + 1_500))
          .atMost(Duration.ofMillis(DEADLINE_MS + 3_000)).pollInterval(Duration.ofMillis(100))
          .until(() -> openAndSilent(socket));
      out.write(get("/api/nope").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertEquals(404, readResponse(in), "the second request on the same connection is answered");
    }
  }

  @Test
  void pipelinedRequestsAreAllAnswered() throws Exception {
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      out.write((get("/api/nope") + get("/api/nope") + get("/api/nope")).getBytes(StandardCharsets.US_ASCII));
      out.flush();
      for (int i = 0; i < 3; i++) assertEquals(404, readResponse(in), "pipelined request " + (i + 1));
    }
  }

  @Test
  void aSlowButBoundedBodyIsNotCutByTheHeadDeadline() throws Exception {
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      String body = Hostile.credentials("slow-body@example.com", "wrong password");
      out.write(("POST /api/session HTTP/1.1\r\nHost: boxoffice\r\nContent-Type: application/json\r\nContent-Length: "
          + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      // The body takes ~3 s to arrive (over the 2 s head deadline, under the routes' 5 s body deadline).
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      long pause = 3_000 / bytes.length;
      for (byte b : bytes) {
        out.write(b);
        out.flush();
        Thread.sleep(pause); // the client's pacing, not a wait for an outcome
      }
      assertEquals(401, readResponse(socket.getInputStream()), "the whole body was read and the sign-in refused");
    }
  }

  static Socket connect() throws IOException {
    Socket socket = new Socket("127.0.0.1", node.httpPort());
    socket.setSoTimeout((int) (DEADLINE_MS + MARGIN_MS + 5_000));
    socket.setTcpNoDelay(true);
    return socket;
  }

  /** Whether the server leaves the connection open and says nothing: a short read times out. */
  static boolean openAndSilent(Socket socket) throws IOException {
    int timeout = socket.getSoTimeout();
    socket.setSoTimeout(50);
    try {
      socket.getInputStream().read();
      return false;
    } catch (SocketTimeoutException silent) {
      return true;
    } catch (SocketException reset) {
      return false;
    } finally {
      socket.setSoTimeout(timeout);
    }
  }

  static String get(String path) {
    return "GET " + path + " HTTP/1.1\r\nHost: boxoffice\r\n\r\n";
  }

  /**
   * Sends {@code head} a byte every 300 ms from another thread, like an attacker, and returns how
   * long after its first byte the server closed the connection (or answered it 408).
   */
  static long dribbleUntilClosed(Socket socket, String head) throws Exception {
    OutputStream out = socket.getOutputStream();
    long started = System.nanoTime();
    Thread attacker = new Thread(() -> {
      try {
        for (byte b : head.getBytes(StandardCharsets.US_ASCII)) {
          out.write(b);
          out.flush();
          Thread.sleep(300); // the attacker's pacing
        }
      } catch (IOException | InterruptedException e) {
        // closed under us: what we want
      }
    });
    attacker.setDaemon(true);
    attacker.start();
    try {
      int status = readResponse(socket.getInputStream());
      assertTrue(status == -1 || status == 408, "the connection is closed (or answered 408), not answered " + status);
      return (System.nanoTime() - started) / 1_000_000;
    } finally {
      attacker.interrupt();
    }
  }

  /** Reads one response and returns its status; -1 when the server closed the connection first. */
  static int readResponse(InputStream in) throws IOException {
    String statusLine;
    try {
      statusLine = readLine(in);
    } catch (SocketException reset) {
      return -1;
    }
    if (statusLine == null) return -1;
    int status = Integer.parseInt(statusLine.split(" ")[1]);
    long length = 0;
    boolean chunked = false;
    for (String line = readLine(in); line != null && !line.isEmpty(); line = readLine(in)) {
      String lower = line.toLowerCase(Locale.ROOT);
      if (lower.startsWith("content-length:")) length = Long.parseLong(lower.substring(15).trim());
      if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) chunked = true;
    }
    if (chunked) {
      for (long size = Long.parseLong(readLine(in).trim(), 16); size > 0; size = Long.parseLong(readLine(in).trim(), 16)) {
        in.readNBytes((int) size);
        readLine(in);
      }
      readLine(in);
    } else {
      in.readNBytes((int) length);
    }
    return status;
  }

  static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); ; b = in.read()) {
      if (b == -1) return line.size() == 0 ? null : line.toString(StandardCharsets.US_ASCII);
      if (b == '\n') break;
      if (b != '\r') line.write(b);
    }
    return line.toString(StandardCharsets.US_ASCII);
  }
}
