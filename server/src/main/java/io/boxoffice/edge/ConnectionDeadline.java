package io.boxoffice.edge;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.apache.pekko.stream.BidiShape;
import org.apache.pekko.stream.Inlet;
import org.apache.pekko.stream.Outlet;
import org.apache.pekko.stream.stage.AbstractInHandler;
import org.apache.pekko.stream.stage.AbstractOutHandler;
import org.apache.pekko.stream.stage.GraphStage;
import org.apache.pekko.stream.stage.TimerGraphStageLogic;
import org.apache.pekko.util.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link HandshakeDeadline} and {@link HeadDeadline} share: a stage on a connection's bytes,
 * below the layer it guards, that passes every byte on unchanged both ways and closes the
 * connection when the client takes longer than {@code timeout} for what the stage watches.
 *
 * <p>Shape: in1 the bytes the inner layer writes, out1 to the network; in2 from the network, out2
 * to the inner layer.
 */
abstract class ConnectionDeadline extends GraphStage<BidiShape<ByteString, ByteString, ByteString, ByteString>> {
  private final Logger log = LoggerFactory.getLogger(getClass());

  final Inlet<ByteString> fromInner;
  final Outlet<ByteString> toNetwork;
  final Inlet<ByteString> fromNetwork;
  final Outlet<ByteString> toInner;
  private final BidiShape<ByteString, ByteString, ByteString, ByteString> shape;
  final Duration timeout;
  private final InetSocketAddress peer;

  /** Ports named {@code stage.fromInner}, {@code stage.toNetwork} and so on ({@code inner}: "Tls", "Server"). */
  ConnectionDeadline(String stage, String inner, Duration timeout, InetSocketAddress peer) {
    if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("header-read-timeout must be positive");
    this.fromInner = Inlet.create(stage + ".from" + inner);
    this.toNetwork = Outlet.create(stage + ".toNetwork");
    this.fromNetwork = Inlet.create(stage + ".fromNetwork");
    this.toInner = Outlet.create(stage + ".to" + inner);
    this.shape = BidiShape.of(fromInner, toNetwork, fromNetwork, toInner);
    this.timeout = timeout;
    this.peer = peer;
  }

  @Override
  public BidiShape<ByteString, ByteString, ByteString, ByteString> shape() {
    return shape;
  }

  /** Passes the bytes both ways; a stage overrides {@link #onBytes} and {@link #onPulled} to watch the client's. */
  abstract class Logic extends TimerGraphStageLogic {
    Logic() {
      super(shape);
      setHandler(fromInner, new AbstractInHandler() {
        @Override public void onPush() { push(toNetwork, grab(fromInner)); }
        @Override public void onUpstreamFinish() { complete(toNetwork); }
      });
      setHandler(toNetwork, new AbstractOutHandler() {
        @Override public void onPull() { pull(fromInner); }
        @Override public void onDownstreamFinish(Throwable cause) { cancel(fromInner, cause); }
      });
      setHandler(fromNetwork, new AbstractInHandler() {
        @Override public void onPush() { onBytes(grab(fromNetwork)); }
        @Override public void onUpstreamFinish() { complete(toInner); }
      });
      setHandler(toInner, new AbstractOutHandler() {
        @Override public void onPull() {
          pull(fromNetwork);
          onPulled();
        }
        @Override public void onDownstreamFinish(Throwable cause) { cancel(fromNetwork, cause); }
      });
    }

    /** Bytes from the client: passed on to the inner layer. */
    void onBytes(ByteString bytes) {
      push(toInner, bytes);
    }

    /** The inner layer asks for the client's next bytes. */
    void onPulled() {}

    /** Closes the connection: the client is not sending what it must, it is holding a slot. */
    void close(String what) {
      log.debug("closing the connection from {}: {} took over {}", peer, what, timeout);
      completeStage();
    }
  }
}
