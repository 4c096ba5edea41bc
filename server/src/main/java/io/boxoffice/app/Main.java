package io.boxoffice.app;

import com.typesafe.config.ConfigFactory;
import java.time.Clock;

/**
 * {@code java -jar boxoffice.jar}: one node, every role, embedded database unless configured
 * otherwise. {@code java -jar boxoffice.jar migrate}: applies the schema's migrations to the
 * configured database and exits (0 when it is at the newest version), as the schema's owner.
 */
public final class Main {
  static final String COMMON_POOL_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

  private Main() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && args[0].equals("migrate")) {
      System.exit(migrate());
    }
    if (args.length > 0) {
      System.err.println("usage: java -jar boxoffice.jar [migrate]");
      System.exit(2);
    }
    // On a 2-CPU node the JDK's common pool gets one thread, and CompletableFuture then starts
    // a new thread for every async callback, which Pekko's Java ask and our routes chain on
    // every request. Give the pool real threads before anything touches it.
    if (System.getProperty(COMMON_POOL_PARALLELISM) == null) {
      System.setProperty(COMMON_POOL_PARALLELISM, Integer.toString(Math.max(4, Runtime.getRuntime().availableProcessors())));
    }
    try {
      Node.start(ConfigFactory.load(), new Node.Options(Clock.systemUTC(), null));
    } catch (NodeSecrets.Refused e) {
      // A configuration mistake, not a crash: say what to set, without a stack trace.
      System.err.println(e.getMessage());
      System.exit(2);
    }
  }

  /** Runs the migrations with the node's database settings; no keys needed, no actor system. */
  static int migrate() {
    try {
      var config = NodeConfig.resolve(ConfigFactory.load());
      EmbeddedDataDir.ownerOnlyDirectory(config);
      var result = Schema.migrate(config);
      EmbeddedDataDir.ownerOnlyFiles(config);
      System.out.println("schema at version " + (result.targetSchemaVersion != null ? result.targetSchemaVersion : result.initialSchemaVersion)
          + ": " + result.migrationsExecuted + " migration(s) applied");
      return 0;
    } catch (RuntimeException e) {
      System.err.println(e.getMessage());
      return 1;
    }
  }
}
