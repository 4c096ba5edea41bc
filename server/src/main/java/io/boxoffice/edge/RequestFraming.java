package io.boxoffice.edge;

import java.util.Locale;
import org.apache.pekko.util.ByteString;

/**
 * Where each HTTP/1.1 request head starts and ends in a connection's incoming bytes, and which
 * bytes are bodies: just enough framing (Content-Length, chunked) to tell head time from body
 * time. It frames as pekko-http's request parser does for every request that parser accepts
 * (lines end in LF or CRLF; a chunked request has no Content-Length); on one it refuses, the
 * parser closes the connection anyway, so whatever is decided here no longer matters.
 */
final class RequestFraming {
  private enum State { START, HEAD, FIXED_BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_DATA_END, TRAILER }

  /** Only Content-Length and Transfer-Encoding lines matter; longer lines are not kept. */
  private static final int MAX_KEPT_LINE = 8192;

  private State state = State.START;
  private final StringBuilder line = new StringBuilder();
  private boolean lineTooLong;
  private boolean firstLine;
  private long contentLength;
  private boolean chunked;
  private long remaining;
  private long headsStarted;

  /** True from the first byte of a request head until its blank line. */
  boolean inHead() {
    return state == State.HEAD;
  }

  /** How many request heads have begun so far: it changes when a new head starts. */
  long headsStarted() {
    return headsStarted;
  }

  void feed(ByteString bytes) {
    int i = 0;
    int n = bytes.length();
    while (i < n) {
      switch (state) {
        case START -> {
          state = State.HEAD;
          headsStarted++;
          firstLine = true;
          contentLength = 0;
          chunked = false;
          resetLine();
        }
        case FIXED_BODY, CHUNK_DATA -> {
          int skip = (int) Math.min(remaining, n - i);
          i += skip;
          remaining -= skip;
          if (remaining == 0) state = state == State.FIXED_BODY ? State.START : State.CHUNK_DATA_END;
        }
        case CHUNK_DATA_END -> {
          if (bytes.apply(i++) == '\n') state = State.CHUNK_SIZE;
        }
        case HEAD, CHUNK_SIZE, TRAILER -> {
          byte b = bytes.apply(i++);
          if (b == '\n') {
            endOfLine();
          } else if (line.length() < MAX_KEPT_LINE) {
            line.append((char) (b & 0xff));
          } else {
            lineTooLong = true;
          }
        }
      }
    }
  }

  private void endOfLine() {
    int len = line.length();
    if (len > 0 && line.charAt(len - 1) == '\r') line.setLength(--len);
    boolean empty = len == 0 && !lineTooLong;
    switch (state) {
      case HEAD -> {
        if (empty) {
          if (chunked) {
            state = State.CHUNK_SIZE;
          } else if (contentLength > 0) {
            state = State.FIXED_BODY;
            remaining = contentLength;
          } else {
            state = State.START;
          }
        } else if (firstLine) {
          firstLine = false;
        } else if (!lineTooLong) {
          header();
        }
      }
      case CHUNK_SIZE -> {
        long size = chunkSize();
        if (size == 0) {
          state = State.TRAILER;
        } else {
          state = State.CHUNK_DATA;
          remaining = size;
        }
      }
      case TRAILER -> {
        if (empty) state = State.START;
      }
      default -> throw new IllegalStateException(state.toString());
    }
    resetLine();
  }

  private void header() {
    int colon = line.indexOf(":");
    if (colon <= 0) return;
    String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
    String value = line.substring(colon + 1).trim();
    if (name.equals("content-length")) {
      try {
        contentLength = Long.parseLong(value);
      } catch (NumberFormatException e) {
        contentLength = 0; // the parser refuses it and closes the connection
      }
    } else if (name.equals("transfer-encoding") && value.toLowerCase(Locale.ROOT).contains("chunked")) {
      chunked = true;
    }
  }

  /** The hex size at the start of a chunk line (white space tolerated, extensions after ';' ignored). */
  private long chunkSize() {
    long size = 0;
    for (int k = 0; k < line.length(); k++) {
      char c = line.charAt(k);
      int digit = Character.digit(c, 16);
      if (digit >= 0) {
        size = size * 16 + digit;
        if (size > Integer.MAX_VALUE) return Integer.MAX_VALUE; // refused by the parser
      } else if (c == ';') {
        break;
      } else if (c != ' ' && c != '\t') {
        break;
      }
    }
    return size;
  }

  private void resetLine() {
    line.setLength(0);
    lineTooLong = false;
  }
}
