package io.boxoffice.web;

import com.google.zxing.BinaryBitmap;
import com.google.zxing.DecodeHintType;
import com.google.zxing.RGBLuminanceSource;
import com.google.zxing.common.HybridBinarizer;
import com.google.zxing.qrcode.QRCodeReader;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import javax.imageio.ImageIO;

/** Reads QR codes back with ZXing. */
final class QrCodes {
  private QrCodes() {}

  /**
   * The text of the QR code in a PNG. The PNG is the code itself, not a photo of it, so it is
   * read in ZXing's pure mode (module by module inside the quiet zone): ZXing's camera detector
   * misses a small share of perfect synthetic images: 20 of 2,000 of our ticket codes (about 1% at
   * 3-10 pixels a module, levels L and M; 2% at Q), which pure mode all read. A flaky CI run met one.
   */
  static String decode(byte[] png) {
    try {
      BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
      if (image == null) throw new AssertionError("not an image");
      int w = image.getWidth(), h = image.getHeight();
      int[] pixels = image.getRGB(0, 0, w, h, null, 0, w);
      return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(w, h, pixels))),
          Map.of(DecodeHintType.PURE_BARCODE, Boolean.TRUE)).getText();
    } catch (Exception e) {
      throw new AssertionError("no QR code could be read", e);
    }
  }

  /** GETs {@code path} with the fan's identity cookie; the status and the body's bytes. */
  static Png png(int port, String cookie, String path) {
    try {
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET();
      if (cookie != null) b.header("Cookie", "bo_id=" + cookie);
      HttpResponse<byte[]> r = HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
      return new Png(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""),
          r.headers().firstValue("Cache-Control").orElse(""), r.body());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  record Png(int status, String contentType, String cacheControl, byte[] body) {}
}
