package io.boxoffice.edge;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.apache.pekko.stream.Attributes;
import org.apache.pekko.stream.stage.GraphStageLogic;

/**
 * Closes a TLS connection whose handshake is not done within {@code timeout} of its accept. Below
 * TLS {@link HeadDeadline} sees no byte until the handshake is over, and the idle timeout starts
 * over with every byte, so a client dribbling its ClientHello would otherwise hold a connection.
 * Sits on the encrypted bytes, between TCP and TLS; {@code handshakeDone} is set by the TLS stage's
 * session check.
 *
 * <p>Shape: in1 from TLS, out1 to the network; in2 from the network, out2 to TLS.
 */
public final class HandshakeDeadline extends ConnectionDeadline {
  private final BooleanSupplier handshakeDone;

  public HandshakeDeadline(Duration timeout, BooleanSupplier handshakeDone, InetSocketAddress peer) {
    super("HandshakeDeadline", "Tls", timeout, peer);
    this.handshakeDone = handshakeDone;
  }

  @Override
  public GraphStageLogic createLogic(Attributes inheritedAttributes) {
    return new Logic() {
      @Override
      public void preStart() {
        scheduleOnce("handshake", timeout);
      }

      @Override
      public void onTimer(Object key) {
        if (!handshakeDone.getAsBoolean()) close("its TLS handshake");
      }
    };
  }
}
