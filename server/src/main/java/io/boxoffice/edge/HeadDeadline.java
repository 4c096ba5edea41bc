package io.boxoffice.edge;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.apache.pekko.stream.Attributes;
import org.apache.pekko.stream.stage.GraphStageLogic;
import org.apache.pekko.util.ByteString;

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
public final class HeadDeadline extends ConnectionDeadline {
  private static final String TIMER = "head";

  public HeadDeadline(Duration timeout, InetSocketAddress peer) {
    super("HeadDeadline", "Server", timeout, peer);
  }

  @Override
  public GraphStageLogic createLogic(Attributes inheritedAttributes) {
    return new Logic() {
      final RequestFraming framing = new RequestFraming();
      long headsSeen;
      /** Head time the current head has left. */
      long leftNanos = timeout.toNanos();
      /** When the HTTP layer began waiting for bytes of an unfinished head, or -1. */
      long waitingSince = -1;

      @Override
      void onBytes(ByteString bytes) {
        stopWaiting();
        framing.feed(bytes);
        if (framing.headsStarted() != headsSeen) {
          headsSeen = framing.headsStarted();
          if (framing.inHead()) leftNanos = timeout.toNanos();
        }
        if (framing.inHead() && leftNanos <= 0) {
          close("its request head");
          return;
        }
        push(toInner, bytes);
      }

      @Override
      void onPulled() {
        if (framing.inHead()) {
          waitingSince = System.nanoTime();
          scheduleOnce(TIMER, Duration.ofNanos(leftNanos));
        }
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
        close("its request head");
      }
    };
  }
}
