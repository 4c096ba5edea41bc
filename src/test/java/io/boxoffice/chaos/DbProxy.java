package io.boxoffice.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A plain TCP forwarder between the chaos cluster's nodes and PostgreSQL, so that
 * {@code chaos/db-outage} can cut the nodes off the database (by killing or stopping this
 * process) without stopping the PostgreSQL that other users of the machine share.
 *
 * <p>{@code java -cp target/test-classes io.boxoffice.chaos.DbProxy LISTEN_HOST:PORT TARGET_HOST:PORT}
 */
public final class DbProxy {
  private DbProxy() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: DbProxy LISTEN_HOST:PORT TARGET_HOST:PORT");
      System.exit(2);
    }
    InetSocketAddress listen = address(args[0]);
    InetSocketAddress target = address(args[1]);
    try (ServerSocket server = new ServerSocket()) {
      server.setReuseAddress(true);
      server.bind(listen, 512);
      System.out.println("db proxy " + listen + " -> " + target);
      while (true) {
        Socket client = server.accept();
        Thread t = new Thread(() -> connect(client, target), "connect");
        t.setDaemon(true);
        t.start();
      }
    }
  }

  private static void connect(Socket client, InetSocketAddress target) {
    Socket upstream = new Socket();
    try {
      upstream.connect(target, 3000);
      client.setTcpNoDelay(true);
      upstream.setTcpNoDelay(true);
    } catch (IOException e) {
      closeQuietly(client);
      closeQuietly(upstream);
      return;
    }
    pump(client, upstream, "c->s");
    pump(upstream, client, "s->c");
  }

  /** Copies one direction until either side closes, then closes both. */
  private static void pump(Socket from, Socket to, String name) {
    Thread t = new Thread(() -> {
      byte[] buffer = new byte[32 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException ignored) {
        // One side went away: the connection is over.
      } finally {
        closeQuietly(from);
        closeQuietly(to);
      }
    }, name);
    t.setDaemon(true);
    t.start();
  }

  private static InetSocketAddress address(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // Already closed.
    }
  }
}
