package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.pekko.util.ByteString;
import org.junit.jupiter.api.Test;

/** The head/body framing that HeadDeadline times heads by. */
class RequestFramingTest {

  static RequestFraming fed(String... pieces) {
    RequestFraming framing = new RequestFraming();
    for (String p : pieces) framing.feed(ByteString.fromString(p));
    return framing;
  }

  @Test
  void aHeadIsOpenUntilItsBlankLine() {
    RequestFraming f = fed("GET / HTTP/1.1\r\nHost: x\r\n");
    assertTrue(f.inHead());
    f.feed(ByteString.fromString("\r\n"));
    assertFalse(f.inHead());
    assertEquals(1, f.headsStarted());
  }

  @Test
  void bareLineFeedsEndLinesAsThePekkoParserAllows() {
    assertFalse(fed("GET / HTTP/1.1\nHost: x\n\n").inHead());
  }

  @Test
  void aFixedLengthBodyIsNotHeadEvenWhenItLooksLikeOne() {
    RequestFraming f = fed("POST / HTTP/1.1\r\ncontent-LENGTH: 10\r\n\r\n", "GET / HTTP");
    assertFalse(f.inHead(), "the ten bytes so far are body");
    assertEquals(1, f.headsStarted());
    f.feed(ByteString.fromString("/1GET / HTTP/1.1\r\n"));
    assertTrue(f.inHead(), "the next request began after the tenth body byte");
    assertEquals(2, f.headsStarted());
  }

  @Test
  void aChunkedBodyIsSkippedWithItsTrailer() {
    RequestFraming f = fed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", "5;ext=1\r\nab\r\n\r\r\n",
        "a\r\n0123456789\r\n", "0\r\nX-Trailer: 1\r\n");
    assertFalse(f.inHead());
    assertEquals(1, f.headsStarted());
    f.feed(ByteString.fromString("\r\n"));
    assertFalse(f.inHead());
    f.feed(ByteString.fromString("G"));
    assertTrue(f.inHead());
    assertEquals(2, f.headsStarted());
  }

  @Test
  void pipelinedRequestsInOneReadAreFramedOneByOne() {
    RequestFraming f = fed("GET /a HTTP/1.1\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET /c HTTP/1.1\r\n\r\n");
    assertFalse(f.inHead());
    assertEquals(3, f.headsStarted());
  }

  @Test
  void onlyContentLengthAndTransferEncodingFrameAndOtherLinesOfAnyLengthAreSkipped() {
    RequestFraming f = fed("POST / HTTP/1.1\r\nCookie: content-length: 99\r\nX-Transfer-Encoding: chunked\r\n",
        "Content-Lengthy: 99\r\nContent-Type: text/plain\r\nTransfer-Encodings: chunked\r\nTransfer-",
        "Encoding-X: chunked\r\nHost: " + "a".repeat(10_000) + "\r\nTE: chunked\r\nConnection: keep-alive\r\nCONTENT-",
        "LENGTH:\t2 \r\n", "\r\na");
    assertFalse(f.inHead(), "the first of two body bytes");
    f.feed(ByteString.fromString("bGET /next"));
    assertTrue(f.inHead(), "after the body, the next head");
    assertEquals(2, f.headsStarted());
  }
}
