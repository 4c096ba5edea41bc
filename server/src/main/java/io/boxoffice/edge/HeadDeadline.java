package io.boxoffice.edge;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.apache.pekko.stream.Attributes;
import org.apache.pekko.stream.BidiShape;
import org.apache.pekko.stream.Inlet;
import org.apache.pekko.stream.Outlet;
import org.apache.pekko.stream.stage.AbstractInHandler;
import org.apache.pekko.stream.stage.AbstractOutHandler;
import org.apache.pekko.stream.stage.GraphStage;
import org.apache.pekko.stream.stage.GraphStageLogic;
import org.apache.pekko.stream.stage.TimerGraphStageLogic;
import org.apache.pekko.util.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection whose request head (request line and headers, up to the blank line) takes
 * longer than {@code timeout} to arrive. pekko-http has no such limit and its idle-timeout starts
 * over with every byte, so a client dribbling a header byte a second would hold a connection
 * (and a share of max-connections) for ever.
 *
 * <p>Sits on the bytes between TCP and the HTTP layer, below it. Each request on a keep-alive
 * connection gets its own deadline, from the first byte of its head; bodies are not head time
 * ({@link RequestFraming} skips them). The clock runs only while the HTTP layer is asking for
 * bytes and the client is not sending them: a pipelined head that waits in the HTTP layer while
 * the previous request is handled is not the client's delay.
 *
 * <p>Shape: in1 the bytes the HTTP layer writes, out1 to the network; in2 from the network, out2
 * to the HTTP layer.
 */
public final class HeadDeadline extends GraphStage<BidiShape<ByteString, ByteString, ByteString, ByteString>> {
  private static final Logger log = LoggerFactory.getLogger(HeadDeadline.class);
  private static final String TIMER = "head";

  private final Inlet<ByteString> fromServer = Inlet.create("HeadDeadline.fromServer");
  private final Outlet<ByteString> toNetwork = Outlet.create("HeadDeadline.toNetwork");
  private final Inlet<ByteString> fromNetwork = Inlet.create("HeadDeadline.fromNetwork");
  private final Outlet<ByteString> toServer = Outlet.create("HeadDeadline.toServer");
  private final BidiShape<ByteString, ByteString, ByteString, ByteString> shape =
      BidiShape.of(fromServer, toNetwork, fromNetwork, toServer);
  private final Duration timeout;
  private final InetSocketAddress peer;

  public HeadDeadline(Duration timeout, InetSocketAddress peer) {
    if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("header-read-timeout must be positive");
    this.timeout = timeout;
    this.peer = peer;
  }

  @Override
  public BidiShape<ByteString, ByteString, ByteString, ByteString> shape() {
    return shape;
  }

  @Override
  public GraphStageLogic createLogic(Attributes inheritedAttributes) {
    return new TimerGraphStageLogic(shape) {
      final RequestFraming framing = new RequestFraming();
      long headsSeen;
      /** Head time the current head has left. */
      long leftNanos = timeout.toNanos();
      /** When the HTTP layer began waiting for bytes of an unfinished head, or -1. */
      long waitingSince = -1;

      {
        setHandler(fromServer, new AbstractInHandler() {
          @Override public void onPush() { push(toNetwork, grab(fromServer)); }
          @Override public void onUpstreamFinish() { complete(toNetwork); }
        });
        setHandler(toNetwork, new AbstractOutHandler() {
          @Override public void onPull() { pull(fromServer); }
          @Override public void onDownstreamFinish(Throwable cause) { cancel(fromServer, cause); }
        });
        setHandler(fromNetwork, new AbstractInHandler() {
          @Override public void onPush() {
            ByteString bytes = grab(fromNetwork);
            stopWaiting();
            framing.feed(bytes);
            if (framing.headsStarted() != headsSeen) {
              headsSeen = framing.headsStarted();
              if (framing.inHead()) leftNanos = timeout.toNanos();
            }
            if (framing.inHead() && leftNanos <= 0) {
              cut();
              return;
            }
            push(toServer, bytes);
          }
          @Override public void onUpstreamFinish() { complete(toServer); }
        });
        setHandler(toServer, new AbstractOutHandler() {
          @Override public void onPull() {
            pull(fromNetwork);
            if (framing.inHead()) {
              waitingSince = System.nanoTime();
              scheduleOnce(TIMER, Duration.ofNanos(leftNanos));
            }
          }
          @Override public void onDownstreamFinish(Throwable cause) { cancel(fromNetwork, cause); }
        });
      }

      void stopWaiting() {
        if (waitingSince >= 0) {
          leftNanos -= System.nanoTime() - waitingSince;
          waitingSince = -1;
          cancelTimer(TIMER);
        }
      }

      @Override
      public void onTimer(Object key) {
        cut();
      }

      /** Closes the connection: the client is not sending a request, it is holding a slot. */
      void cut() {
        log.debug("closing the connection from {}: its request head took over {}", peer, timeout);
        completeStage();
      }
    };
  }
}
