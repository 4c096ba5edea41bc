package io.boxoffice.inventory;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import java.util.List;

/**
 * The spans of the batch an inventory is writing: its journal write and the commands it answers.
 * They end when the write is done, or, when the journal fails or refuses it (the inventory then
 * restarts and never answers those commands), at once with an error, so a trace shows where a
 * hold that timed out went. One per inventory incarnation; used on its actor's thread only.
 */
final class WriteSpans {
  private Span write;
  private List<Span> commands = List.of();

  /** A batch is being written ({@code write} null when none of its commands is traced). */
  void writing(Span write, List<Span> commands) {
    this.write = write;
    this.commands = commands;
  }

  /** The batch is written: the write's span ends. */
  void written() {
    if (write != null) write.end();
    write = null;
  }

  /** The batch's replies are sent: its commands' spans end. */
  void answered() {
    commands.forEach(Span::end);
    commands = List.of();
  }

  /** The journal failed ({@code cause}) or refused the batch being written, or the inventory stopped before it was. */
  void failed(String what, Throwable cause) {
    if (write != null) fail(write, what, cause);
    commands.forEach(span -> fail(span, what, cause));
    clear();
  }

  /** Ends a span of work that will not be answered. */
  static void fail(Span span, String what, Throwable cause) {
    span.setStatus(StatusCode.ERROR, what);
    if (cause != null) span.recordException(cause);
    span.end();
  }

  /** Whether a batch's spans wait for its write (tests). */
  boolean busy() {
    return write != null || !commands.isEmpty();
  }

  private void clear() {
    write = null;
    commands = List.of();
  }
}
