package io.boxoffice.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A plain TCP forwarder between boxoffice nodes and PostgreSQL, so that a database outage can be
 * made without stopping the PostgreSQL that other users of the machine share: {@code
 * chaos/db-outage} kills or stops this process; a test calls {@link #cut()} and {@link #restore()}.
 *
 * <p>{@code java -cp server/target/test-classes io.boxoffice.support.DbProxy LISTEN_HOST:PORT TARGET_HOST:PORT}
 */
public final class DbProxy implements AutoCloseable {
  private final InetSocketAddress listen;
  private final InetSocketAddress target;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile ServerSocket server;

  public DbProxy(InetSocketAddress listen, InetSocketAddress target) {
    this.listen = listen;
    this.target = target;
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length != 2) {
      System.err.println("usage: DbProxy LISTEN_HOST:PORT TARGET_HOST:PORT");
      System.exit(2);
    }
    DbProxy proxy = new DbProxy(address(args[0]), address(args[1]));
    proxy.restore();
    System.out.println("db proxy " + proxy.listen + " -> " + proxy.target);
    Thread.currentThread().join();
  }

  /** Listens (again): new connections reach the database. */
  public synchronized void restore() throws IOException {
    if (server != null) return;
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(listen, 512);
    server = s;
    Thread acceptor = new Thread(() -> {
      try {
        while (true) {
          Socket client = s.accept();
          Thread t = new Thread(() -> connect(client), "connect");
          t.setDaemon(true);
          t.start();
        }
      } catch (IOException closed) {
        // cut() closed the listening socket.
      }
    }, "db-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** As when the database goes down: every open connection breaks and new ones are refused. */
  public synchronized void cut() {
    if (server != null) closeQuietly(server);
    server = null;
    for (Socket s : open) closeQuietly(s);
    open.clear();
  }

  @Override
  public void close() {
    cut();
  }

  private void connect(Socket client) {
    Socket upstream = new Socket();
    open.add(client);
    open.add(upstream);
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
  private void pump(Socket from, Socket to, String name) {
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
        open.remove(from);
        open.remove(to);
      }
    }, name);
    t.setDaemon(true);
    t.start();
  }

  static InetSocketAddress address(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
  }

  private static void closeQuietly(java.io.Closeable s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // Already closed.
    }
  }
}
