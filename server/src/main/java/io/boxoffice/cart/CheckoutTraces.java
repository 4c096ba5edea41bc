package io.boxoffice.cart;

import io.boxoffice.cart.domain.Action;
import io.boxoffice.cart.domain.Answer;
import io.boxoffice.cart.domain.Decision;
import io.boxoffice.common.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The spans of a cart's traced checkouts: one per checkout asked by a traced request (the
 * request's child), known by its Idempotency-Key until it has an order, then by the order. Its
 * payment calls are its children and the inventory's confirm continues it, so one trace shows a
 * checkout from the edge through the processor and the event's journal. In memory only, a few
 * per cart (a span is not worth a write): a checkout the cart resumes after a move is not traced.
 * Used on the cart's actor thread; a payment call's span ends on the processor's thread.
 */
final class CheckoutTraces {
  /** Checkouts of one fan's cart whose spans are kept: a fan has one at a time, a retried key a second. */
  private static final int KEPT = 8;

  private final Tracing tracing;
  private final Map<String, Span> byKey = lru();
  private final Map<String, Span> byOrder = lru();

  CheckoutTraces(Tracing tracing) {
    this.tracing = tracing;
  }

  /** A checkout asked under {@code key} by a request traced as {@code traceparent} (null: not traced). */
  void asked(String key, String traceparent) {
    if (!tracing.on() || traceparent == null) return;
    Span span = tracing.start("cart Checkout", SpanKind.CONSUMER, traceparent);
    Span earlier = byKey.put(key, span);
    if (earlier != null) fail(earlier, "asked again under the same key");
  }

  /** The saga decided on the checkout asked under {@code key}: answered at once, or now waits for an order. */
  void decided(String key, Decision decision) {
    if (byKey.isEmpty()) return;
    if (decision.reply().isPresent()) {
      Span span = byKey.remove(key);
      if (span != null) answered(span, decision.reply().get());
      return;
    }
    for (Action action : decision.actions()) {
      if (!(action instanceof Action.WaitForAnswer wait)) continue;
      Span span = byKey.remove(key);
      if (span == null) return;
      span.setAttribute("boxoffice.order", wait.orderId());
      Span running = byOrder.get(wait.orderId());
      if (running != null && running.isRecording()) {
        // The same checkout asked again: it waits for the first request's order, traced there.
        span.setAttribute("boxoffice.reply", "waits for the running checkout");
        span.end();
      } else {
        byOrder.put(wait.orderId(), span);
      }
      return;
    }
  }

  /** The W3C traceparent the order's calls carry on (null when it is not traced). */
  String traceparent(String orderId) {
    Span span = byOrder.get(orderId);
    return span == null ? null : Tracing.traceparent(span);
  }

  /** A span for a call the order makes ({@code name}, e.g. "payment authorize"), or null when it is not traced. */
  Span call(String orderId, String name) {
    Span parent = byOrder.get(orderId);
    if (parent == null) return null;
    Span span = tracing.startChild(name, parent, List.of());
    span.setAttribute("boxoffice.order", orderId);
    return span;
  }

  /** Ends a call's span: {@code ok}, or with an error. */
  static void callDone(Span span, boolean ok) {
    if (span == null) return;
    if (!ok) span.setStatus(StatusCode.ERROR, "no answer");
    span.end();
  }

  /** The fan is told the order's answer: its span ends (its later calls, the capture, still find it). */
  void orderAnswered(String orderId, Answer answer) {
    Span span = byOrder.get(orderId);
    if (span != null && span.isRecording()) answered(span, answer);
  }

  /** The cart stops: spans of checkouts it has not answered end with an error. */
  void stopped() {
    byKey.values().forEach(span -> fail(span, "the cart stopped before answering"));
    byOrder.values().stream().filter(Span::isRecording).forEach(span -> fail(span, "the cart stopped before answering"));
    byKey.clear();
    byOrder.clear();
  }

  private static void answered(Span span, Answer answer) {
    span.setAttribute("boxoffice.reply", answer instanceof Answer.Refused r ? r.code().code()
        : ((Answer.Placed) answer).status().code());
    span.end();
  }

  private static void fail(Span span, String why) {
    span.setStatus(StatusCode.ERROR, why);
    span.end();
  }

  private static Map<String, Span> lru() {
    return new LinkedHashMap<>(4, 0.75f, false) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Span> eldest) {
        if (size() <= KEPT) return false;
        if (eldest.getValue().isRecording()) fail(eldest.getValue(), "too many checkouts traced at once");
        return true;
      }
    };
  }
}
