package io.boxoffice.app;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.actor.ActorSystem;

/** Readiness: this node serves HTTP. Pekko Management asks it (see conf/management.conf) at {@code /ready}. */
public final class HttpReadiness implements Supplier<CompletionStage<Boolean>> {
  private static final java.util.Set<ActorSystem> READY = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final ActorSystem system;

  public HttpReadiness(ActorSystem system) {
    this.system = system;
  }

  /** Called once the node's HTTP server is bound. */
  public static void ready(ActorSystem system) {
    READY.add(system);
    system.getWhenTerminated().thenRun(() -> READY.remove(system));
  }

  @Override
  public CompletionStage<Boolean> get() {
    return CompletableFuture.completedFuture(READY.contains(system));
  }
}
