package io.boxoffice.edge;

import java.util.Locale;
import org.apache.pekko.util.ByteString;

/**
 * Where each HTTP/1.1 request head starts and ends in a connection's incoming bytes, and which
 * bytes are bodies: just enough framing (Content-Length, chunked) to tell head time from body
 * time. It frames as pekko-http's request parser does for every request that parser accepts
 * (lines end in LF or CRLF; a chunked request has no Content-Length); on one it refuses, the
 * parser closes the connection anyway, so whatever is decided here no longer matters.
 *
 * <p>Every byte of every request passes here, so a line is only measured, not copied, unless
 * its text matters: a chunk's size line, or a Content-Length or Transfer-Encoding header. A
 * header line is copied only while it may still be one of those: it starts with a C or a T,
 * and its name, up to the colon, is one of the two (the parser refuses white space before the
 * colon or at the start of a header line).
 */
final class RequestFraming {
  private enum State { START, HEAD, FIXED_BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_DATA_END, TRAILER }

  /** Longer lines are not kept: no Content-Length or chunk size is that long. */
  private static final int MAX_KEPT_LINE = 8192;
  private static final String CONTENT_LENGTH = "content-length";
  private static final String TRANSFER_ENCODING = "transfer-encoding";

  private State state = State.START;
  /** The current line's text, when it is kept. */
  private final StringBuilder line = new StringBuilder();
  private boolean keeping;
  /** Whether the current header line's name has ended (its colon was read). */
  private boolean nameEnded;
  /** Bytes of the current line so far (its LF not counted), up to 2: only whether it is empty (but for a CR) matters. */
  private int lineLength;
  /** Whether the current line's last byte so far is a CR. */
  private boolean endsInCr;
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
    // The read's own array when it is one (no copy); the loops below then index an array.
    byte[] a = bytes.toArrayUnsafe();
    int i = 0;
    int n = a.length;
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
          if (a[i++] == '\n') state = State.CHUNK_SIZE;
        }
        case HEAD, CHUNK_SIZE, TRAILER -> i = line(a, i, n);
      }
    }
  }

  /** Reads the current line from {@code i} up to its LF (then ends it) or to {@code n}; returns where it stopped. */
  private int line(byte[] a, int i, int n) {
    if (lineLength == 0) keeping = state == State.CHUNK_SIZE || (state == State.HEAD && !firstLine && mayFrame(a[i]));
    int end = i;
    while (end < n && a[end] != '\n') end++;
    if (end > i) {
      lineLength = Math.min(2, lineLength + (end - i));
      endsInCr = a[end - 1] == '\r';
      if (keeping) keep(a, i, end);
    }
    if (end == n) return n;
    endOfLine();
    return end + 1;
  }

  /**
   * Keeps {@code a[from, to)} of the current line; a header line stops being kept as soon as its
   * name is known not to be Content-Length or Transfer-Encoding (a Cookie header is long).
   */
  private void keep(byte[] a, int from, int to) {
    for (int k = from; k < to; k++) {
      char c = (char) (a[k] & 0xff);
      if (state == State.HEAD && !nameEnded) {
        if (c == ':') {
          nameEnded = true;
          if (!(sameIgnoringCase(line, CONTENT_LENGTH) || sameIgnoringCase(line, TRANSFER_ENCODING))) {
            keeping = false;
            return;
          }
        } else if (line.length() == TRANSFER_ENCODING.length()) {
          keeping = false;
          return;
        }
      }
      if (line.length() < MAX_KEPT_LINE) line.append(c);
      else lineTooLong = true;
    }
  }

  private static boolean sameIgnoringCase(StringBuilder name, String lowerCase) {
    if (name.length() != lowerCase.length()) return false;
    for (int k = 0; k < name.length(); k++) {
      if (Character.toLowerCase(name.charAt(k)) != lowerCase.charAt(k)) return false;
    }
    return true;
  }

  /** Whether a header line starting with {@code first} may be Content-Length or Transfer-Encoding. */
  private static boolean mayFrame(byte first) {
    int lower = first | 0x20;
    return lower == 'c' || lower == 't';
  }

  private void endOfLine() {
    int len = line.length();
    if (keeping && len > 0 && line.charAt(len - 1) == '\r') line.setLength(--len);
    boolean empty = lineLength - (endsInCr ? 1 : 0) == 0;
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
        } else if (keeping && !lineTooLong) {
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
    if (name.equals(CONTENT_LENGTH)) {
      try {
        contentLength = Long.parseLong(value);
      } catch (NumberFormatException e) {
        contentLength = 0; // the parser refuses it and closes the connection
      }
    } else if (name.equals(TRANSFER_ENCODING) && value.toLowerCase(Locale.ROOT).contains("chunked")) {
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
    keeping = false;
    nameEnded = false;
    lineLength = 0;
    endsInCr = false;
    lineTooLong = false;
  }
}
