package io.boxoffice.edge;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.BooleanSupplier;
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
 * Closes a TLS connection whose handshake is not done within {@code timeout} of its accept. Below
 * TLS {@link HeadDeadline} sees no byte until the handshake is over, and the idle timeout starts
 * over with every byte, so a client dribbling its ClientHello would otherwise hold a connection.
 * Sits on the encrypted bytes, between TCP and TLS; {@code handshakeDone} is set by the TLS stage's
 * session check.
 *
 * <p>Shape: in1 from TLS, out1 to the network; in2 from the network, out2 to TLS.
 */
public final class HandshakeDeadline extends GraphStage<BidiShape<ByteString, ByteString, ByteString, ByteString>> {
  private static final Logger log = LoggerFactory.getLogger(HandshakeDeadline.class);

  private final Inlet<ByteString> fromTls = Inlet.create("HandshakeDeadline.fromTls");
  private final Outlet<ByteString> toNetwork = Outlet.create("HandshakeDeadline.toNetwork");
  private final Inlet<ByteString> fromNetwork = Inlet.create("HandshakeDeadline.fromNetwork");
  private final Outlet<ByteString> toTls = Outlet.create("HandshakeDeadline.toTls");
  private final BidiShape<ByteString, ByteString, ByteString, ByteString> shape =
      BidiShape.of(fromTls, toNetwork, fromNetwork, toTls);
  private final Duration timeout;
  private final BooleanSupplier handshakeDone;
  private final InetSocketAddress peer;

  public HandshakeDeadline(Duration timeout, BooleanSupplier handshakeDone, InetSocketAddress peer) {
    if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("header-read-timeout must be positive");
    this.timeout = timeout;
    this.handshakeDone = handshakeDone;
    this.peer = peer;
  }

  @Override
  public BidiShape<ByteString, ByteString, ByteString, ByteString> shape() {
    return shape;
  }

  @Override
  public GraphStageLogic createLogic(Attributes inheritedAttributes) {
    return new TimerGraphStageLogic(shape) {
      {
        setHandler(fromTls, new AbstractInHandler() {
          @Override public void onPush() { push(toNetwork, grab(fromTls)); }
          @Override public void onUpstreamFinish() { complete(toNetwork); }
        });
        setHandler(toNetwork, new AbstractOutHandler() {
          @Override public void onPull() { pull(fromTls); }
          @Override public void onDownstreamFinish(Throwable cause) { cancel(fromTls, cause); }
        });
        setHandler(fromNetwork, new AbstractInHandler() {
          @Override public void onPush() { push(toTls, grab(fromNetwork)); }
          @Override public void onUpstreamFinish() { complete(toTls); }
        });
        setHandler(toTls, new AbstractOutHandler() {
          @Override public void onPull() { pull(fromNetwork); }
          @Override public void onDownstreamFinish(Throwable cause) { cancel(fromNetwork, cause); }
        });
      }

      @Override
      public void preStart() {
        scheduleOnce("handshake", timeout);
      }

      @Override
      public void onTimer(Object key) {
        if (handshakeDone.getAsBoolean()) return;
        log.debug("closing the connection from {}: its TLS handshake took over {}", peer, timeout);
        completeStage();
      }
    };
  }
}
