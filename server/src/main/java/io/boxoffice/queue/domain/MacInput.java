package io.boxoffice.queue.domain;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** The bytes to sign for a list of fields: each field's UTF-8 length, then its bytes, so ("a|b", "c") and ("a", "b|c") differ. */
final class MacInput {
  private MacInput() {}

  static byte[] of(String... fields) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64);
    for (String field : fields) {
      byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
      int n = bytes.length;
      out.write(n >>> 24);
      out.write(n >>> 16);
      out.write(n >>> 8);
      out.write(n);
      out.write(bytes, 0, n);
    }
    return out.toByteArray();
  }
}
