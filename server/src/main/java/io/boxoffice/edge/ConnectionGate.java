package io.boxoffice.edge;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import org.apache.pekko.Done;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.Connection;
import org.apache.pekko.stream.Attributes;
import org.apache.pekko.stream.BidiShape;
import org.apache.pekko.stream.Inlet;
import org.apache.pekko.stream.Outlet;
import org.apache.pekko.stream.stage.AbstractInHandler;
import org.apache.pekko.stream.stage.AbstractOutHandler;
import org.apache.pekko.stream.stage.AsyncCallback;
import org.apache.pekko.stream.stage.GraphStageLogic;
import org.apache.pekko.stream.stage.GraphStageWithMaterializedValue;
import scala.Tuple2;

/**
 * One HTTP connection's part in {@link HttpServer}'s graceful termination, between the HTTP layer
 * and the handler: it counts the requests in flight, and once told to close it takes no further
 * request, lets those in flight be answered (the last answer says {@code Connection: close}) and
 * then closes the connection. Materializes a stage that completes when the connection is gone.
 *
 * <p>Shape: in1 responses from the handler, out1 to the HTTP layer; in2 requests from the HTTP
 * layer, out2 to the handler.
 */
final class ConnectionGate
    extends GraphStageWithMaterializedValue<BidiShape<HttpResponse, HttpResponse, HttpRequest, HttpRequest>, CompletionStage<Done>> {

  /** What the server may do with an open connection. */
  record Handle(AsyncCallback<Boolean> signal, CompletionStage<Done> closed) {
    void close() { signal.invoke(false); }
    void abort() { signal.invoke(true); }
  }

  private final Inlet<HttpResponse> fromHandler = Inlet.create("ConnectionGate.fromHandler");
  private final Outlet<HttpResponse> toServer = Outlet.create("ConnectionGate.toServer");
  private final Inlet<HttpRequest> fromServer = Inlet.create("ConnectionGate.fromServer");
  private final Outlet<HttpRequest> toHandler = Outlet.create("ConnectionGate.toHandler");
  private final BidiShape<HttpResponse, HttpResponse, HttpRequest, HttpRequest> shape =
      BidiShape.of(fromHandler, toServer, fromServer, toHandler);
  private final BooleanSupplier terminating;
  private final Set<Handle> connections;

  ConnectionGate(BooleanSupplier terminating, Set<Handle> connections) {
    this.terminating = terminating;
    this.connections = connections;
  }

  @Override
  public BidiShape<HttpResponse, HttpResponse, HttpRequest, HttpRequest> shape() {
    return shape;
  }

  @Override
  public Tuple2<GraphStageLogic, CompletionStage<Done>> createLogicAndMaterializedValue(Attributes attributes) {
    CompletableFuture<Done> closed = new CompletableFuture<>();
    GraphStageLogic logic = new GraphStageLogic(shape) {
      int inFlight;
      boolean closing;
      Handle handle;

      {
        setHandler(fromServer, new AbstractInHandler() {
          @Override public void onPush() {
            inFlight++;
            push(toHandler, grab(fromServer));
          }
          @Override public void onUpstreamFinish() { complete(toHandler); }
        });
        setHandler(toHandler, new AbstractOutHandler() {
          @Override public void onPull() {
            if (!closing) pull(fromServer);
          }
          @Override public void onDownstreamFinish(Throwable cause) { cancel(fromServer, cause); }
        });
        setHandler(fromHandler, new AbstractInHandler() {
          @Override public void onPush() {
            HttpResponse response = grab(fromHandler);
            inFlight--;
            if (closing && inFlight == 0) {
              push(toServer, response.addHeader(Connection.create("close")));
              completeStage();
            } else {
              push(toServer, response);
            }
          }
          @Override public void onUpstreamFinish() { complete(toServer); }
        });
        setHandler(toServer, new AbstractOutHandler() {
          @Override public void onPull() { pull(fromHandler); }
          @Override public void onDownstreamFinish(Throwable cause) { cancel(fromHandler, cause); }
        });
      }

      @Override
      public void preStart() {
        handle = new Handle(createAsyncCallback(this::signal), closed);
        connections.add(handle);
        // Accepted just as termination began: it closes like the others.
        if (terminating.getAsBoolean()) signal(false);
      }

      void signal(boolean abort) {
        closing = true;
        if (abort || inFlight == 0) completeStage();
      }

      @Override
      public void postStop() {
        if (handle != null) connections.remove(handle);
        closed.complete(Done.getInstance());
      }
    };
    return Tuple2.apply(logic, closed);
  }
}
