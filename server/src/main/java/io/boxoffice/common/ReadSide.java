package io.boxoffice.common;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.japi.function.Function;
import org.apache.pekko.projection.jdbc.JdbcSession;

/**
 * The read side's database: the connections its projections (pekko-projection-jdbc, which
 * keeps each projection's offset in {@code pekko_projection_offset_store} in the same
 * transaction as the handler's writes) and the readers of their tables use. One pool per node,
 * its size the projection dispatcher's thread count, so a blocked JDBC call never waits for a
 * connection held by a thread that waits for another.
 */
public final class ReadSide {
  /** pekko-projection-jdbc's blocking dispatcher; its thread count is set in conf/persistence.conf. */
  public static final String DISPATCHER = "pekko.projection.jdbc.blocking-jdbc-dispatcher";

  private final HikariDataSource pool;
  private final Executor blocking;

  private ReadSide(HikariDataSource pool, Executor blocking) {
    this.pool = pool;
    this.blocking = blocking;
  }

  /** Opens the pool; it closes when {@code system} terminates. */
  public static ReadSide start(ActorSystem<?> system, String url, String user, String password, Duration connectionTimeout) {
    HikariConfig hikari = new HikariConfig();
    hikari.setJdbcUrl(url);
    hikari.setUsername(user);
    hikari.setPassword(password);
    hikari.setMaximumPoolSize(system.settings().config().getInt(DISPATCHER + ".thread-pool-executor.fixed-pool-size"));
    hikari.setConnectionTimeout(connectionTimeout.toMillis());
    hikari.setAutoCommit(false);
    hikari.setPoolName("read-side");
    hikari.setRegisterMbeans(true);
    HikariDataSource pool = new HikariDataSource(hikari);
    system.getWhenTerminated().thenRun(pool::close);
    return new ReadSide(pool, system.dispatchers().lookup(DispatcherSelector.fromConfig(DISPATCHER)));
  }

  /** A new transaction for a projection; the projection commits or rolls it back and closes it. */
  public Session session() {
    try {
      return new Session(pool.getConnection());
    } catch (SQLException e) {
      throw new IllegalStateException("no connection to the read side's database", e);
    }
  }

  /** Runs {@code work} in a transaction of its own on the blocking dispatcher, and commits it. */
  public <T> CompletionStage<T> transact(Function<Connection, T> work) {
    return CompletableFuture.supplyAsync(() -> {
      try (Session session = session()) {
        T result = session.withConnection(work);
        session.commit();
        return result;
      } catch (Exception e) {
        throw new CompletionException(e);
      }
    }, blocking);
  }

  /** One transaction on one pooled connection. */
  public static final class Session implements JdbcSession, AutoCloseable {
    private final Connection connection;

    private Session(Connection connection) {
      this.connection = connection;
    }

    @Override
    public <R> R withConnection(Function<Connection, R> func) throws Exception {
      return func.apply(connection);
    }

    @Override
    public void commit() throws SQLException {
      connection.commit();
    }

    @Override
    public void rollback() throws SQLException {
      connection.rollback();
    }

    @Override
    public void close() throws SQLException {
      connection.close();
    }
  }
}
