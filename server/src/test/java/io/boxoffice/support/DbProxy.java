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
 * made without stopping the PostgreSQL that other users of the machine share. Two faults:
 * {@link #cut()} (the database is down: every connection breaks, new ones are refused) and
 * {@link #blackHole()} (the database's address stops answering, as when a failover leaves the
 * old primary's address dead or a firewall drops packets: connections stay open, new ones are
 * accepted, nothing is ever answered and nothing is ever closed). {@link #restore()} forwards
 * new connections again; the black-holed ones stay black-holed until the proxy closes, as the
 * old primary's connections do after a failover: the client must give them up itself.
 *
 * <p>{@code java -cp server/target/test-classes io.boxoffice.support.DbProxy LISTEN_HOST:PORT TARGET_HOST:PORT [MODE_FILE]}:
 * {@code chaos/db-outage} kills this process (cut), or writes {@code blackhole} or
 * {@code forward} into MODE_FILE, which the proxy reads every 50 ms.
 */
public final class DbProxy implements AutoCloseable {
  private final InetSocketAddress listen;
  private final InetSocketAddress target;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  /** Sockets of black-holed connections: held open, never read from or written to again. */
  private final Set<Socket> blackHoled = ConcurrentHashMap.newKeySet();
  private final Set<Socket> upstreams = ConcurrentHashMap.newKeySet();
  private volatile ServerSocket server;
  private volatile boolean blackHoling;

  public DbProxy(InetSocketAddress listen, InetSocketAddress target) {
    this.listen = listen;
    this.target = target;
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length != 2 && args.length != 3) {
      System.err.println("usage: DbProxy LISTEN_HOST:PORT TARGET_HOST:PORT [MODE_FILE]");
      System.exit(2);
    }
    DbProxy proxy = new DbProxy(address(args[0]), address(args[1]));
    proxy.restore();
    System.out.println("db proxy " + proxy.listen + " -> " + proxy.target);
    if (args.length == 3) {
      followModeFile(proxy, java.nio.file.Path.of(args[2]));
    }
    Thread.currentThread().join();
  }

  /** Switches between forwarding and black-holing as the file says ({@code forward} or {@code blackhole}). */
  private static void followModeFile(DbProxy proxy, java.nio.file.Path file) throws InterruptedException {
    String mode = "forward";
    while (true) {
      String wanted = "forward";
      try {
        wanted = java.nio.file.Files.readString(file).trim();
      } catch (IOException missing) {
        // No file: forward.
      }
      if (!wanted.equals(mode)) {
        try {
          if (wanted.equals("blackhole")) proxy.blackHole();
          else proxy.restore();
          System.out.println(java.time.Instant.now() + " db proxy: " + wanted);
          mode = wanted;
        } catch (IOException e) {
          System.err.println("db proxy cannot switch to " + wanted + ": " + e);
        }
      }
      Thread.sleep(50);
    }
  }

  /** Listens (again) and forwards new connections to the database. Black-holed connections stay so. */
  public synchronized void restore() throws IOException {
    blackHoling = false;
    if (server != null) return;
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(listen, 512);
    server = s;
    Thread acceptor = new Thread(() -> {
      try {
        while (true) {
          Socket client = s.accept();
          synchronized (this) {
            // A connection accepted just before cut() closed the listener must not outlive the
            // cut: cut() and this check take the same lock, so it is either closed there or here.
            if (server != s) {
              closeQuietly(client);
              continue;
            }
            open.add(client);
          }
          if (blackHoling) {
            // Accepted by the kernel as a black-holed address never is, but answered just as
            // little: the client's connect or login timeout must give up on it.
            blackHoled.add(client);
            continue;
          }
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

  /**
   * As when the database's address stops answering: every open connection hangs for good
   * (kept open, its bytes swallowed both ways, never closed), and new connections are accepted
   * and never answered. Nothing is closed before {@link #close()}.
   */
  public synchronized void blackHole() throws IOException {
    blackHoling = true;
    blackHoled.addAll(open);
    if (server == null) restore();
    blackHoling = true;
  }

  @Override
  public void close() {
    cut();
    for (Socket s : blackHoled) closeQuietly(s);
    blackHoled.clear();
  }

  private void connect(Socket client) {
    Socket upstream = new Socket();
    synchronized (this) {
      if (!open.contains(client)) {
        // cut() came between the accept and here.
        closeQuietly(client);
        return;
      }
      open.add(upstream);
      upstreams.add(upstream);
    }
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
          // A black-holed connection reads on, so that its sender is never pushed back, and
          // delivers nothing.
          if (blackHoled.contains(from) || blackHoled.contains(to)) continue;
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException ignored) {
        // One side went away: the connection is over.
      } finally {
        if (blackHoled.contains(from) || blackHoled.contains(to)) {
          // A black-holed connection is never closed towards the client; once the client gave
          // it up, the database's end goes too.
          closeQuietly(upstreams.contains(from) ? from : to);
        } else {
          closeQuietly(from);
          closeQuietly(to);
        }
        upstreams.remove(from);
        upstreams.remove(to);
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
