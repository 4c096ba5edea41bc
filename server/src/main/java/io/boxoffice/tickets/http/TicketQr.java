package io.boxoffice.tickets.http;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.EncodeHintType;
import com.google.zxing.WriterException;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.qrcode.QRCodeWriter;
import com.google.zxing.qrcode.decoder.ErrorCorrectionLevel;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * A ticket's barcode as a QR code a gate's camera reads off a phone screen: a black-on-white PNG,
 * {@link #MODULE_PIXELS} pixels a module, with the standard four-module quiet zone and error
 * correction level M (a cracked screen or a glare spot still scans).
 */
public final class TicketQr {
  static final int MODULE_PIXELS = 6;

  private TicketQr() {}

  /** The PNG bytes of a QR code that encodes {@code text}. */
  public static byte[] png(String text) {
    try {
      BitMatrix modules = new QRCodeWriter().encode(text, BarcodeFormat.QR_CODE, 0, 0,
          Map.of(EncodeHintType.ERROR_CORRECTION, ErrorCorrectionLevel.M, EncodeHintType.MARGIN, 4));
      int size = modules.getWidth() * MODULE_PIXELS;
      BufferedImage image = new BufferedImage(size, size, BufferedImage.TYPE_BYTE_BINARY);
      for (int y = 0; y < size; y++) {
        for (int x = 0; x < size; x++) {
          image.setRGB(x, y, modules.get(x / MODULE_PIXELS, y / MODULE_PIXELS) ? 0x000000 : 0xFFFFFF);
        }
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
      ImageIO.write(image, "png", out);
      return out.toByteArray();
    } catch (WriterException | IOException e) {
      throw new IllegalArgumentException("cannot draw a QR code of " + text.length() + " characters", e);
    }
  }
}
