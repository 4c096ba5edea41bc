package io.boxoffice.queue.domain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.SplittableRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class HmacSha256Test {
  @Test
  void itComputesTheSameMacsAsTheJdk() throws Exception {
    SplittableRandom random = new SplittableRandom(2104);
    for (int keyLength : new int[] {32, 63, 64, 65, 100, 200}) {
      byte[] key = new byte[keyLength];
      random.nextBytes(key);
      HmacSha256 ours = new HmacSha256(key);
      Mac jdk = Mac.getInstance("HmacSHA256");
      jdk.init(new SecretKeySpec(key, "HmacSHA256"));
      for (int length = 0; length < 300; length++) {
        byte[] data = new byte[length + 7];
        random.nextBytes(data);
        jdk.update(data, 3, length);
        byte[] out = new byte[40];
        ours.mac(data, 3, length, out, 5);
        byte[] mine = java.util.Arrays.copyOfRange(out, 5, 37);
        assertArrayEquals(jdk.doFinal(), mine, "key " + keyLength + " bytes, data " + length + " bytes");
        ours.mac(data, 3, length, out, 5); // the pad states are not used up by a MAC
        assertArrayEquals(mine, java.util.Arrays.copyOfRange(out, 5, 37));
      }
    }
  }
}
