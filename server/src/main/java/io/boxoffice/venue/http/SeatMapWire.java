package io.boxoffice.venue.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.boxoffice.venue.domain.SeatMap;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * A seat map as it goes on the wire, in two forms with one version.
 *
 * <p>The contract's form lists every seat: {@code {"version","seats":[{"seatId","section","row",
 * "number","zone","priceCents","x","y"}]}} (coordinates rounded to a tenth), plus the event's
 * name, venue name, prices and per-account limit as extra fields.
 *
 * <p>The compact form ({@code ?format=compact}) says the same without repeating it per seat:
 * {@code {"version","format":"compact","zones":[...],"prices":{zone:cents},"scale":10,
 * "sections":[{"id","zone":zoneIndex,"rows":[{"id","seats":n,"xy":[x1,y1,x2,y2,...]}]}]}}.
 * Seats are numbered 1..n in each row, so seat {@code k} of a row is
 * {@code <section>-<row>-<k>}, at {@code (xy[2k-2]/scale, xy[2k-1]/scale)}; walking sections,
 * rows and seats in order gives seat-map order, the order of the availability bits.
 *
 * <p>The version is the first 16 hex digits of SHA-256 over the compact form without its
 * version: it changes whenever any seat, coordinate, price or limit does.
 */
public final class SeatMapWire {
  /** Coordinates are sent as integers in tenths. */
  public static final int SCALE = 10;

  /** Both forms, as UTF-8 JSON, and their version. */
  public record Rendered(String version, byte[] json, byte[] compact) {}

  private SeatMapWire() {}

  public static Rendered render(ObjectMapper mapper, String eventId, String name, SeatMap map, Map<String, Integer> prices,
                                int maxSeatsPerAccount) throws IOException {
    byte[] compactBody = write(mapper, g -> {
      header(g, eventId, name, map, prices, maxSeatsPerAccount);
      g.writeStringField("format", "compact");
      g.writeArrayFieldStart("zones");
      for (String z : map.zones()) g.writeString(z);
      g.writeEndArray();
      g.writeNumberField("scale", SCALE);
      g.writeArrayFieldStart("sections");
      int row = 0;
      while (row < map.rowCount()) {
        int section = map.rowSection(row);
        g.writeStartObject();
        g.writeStringField("id", map.sectionId(section));
        g.writeNumberField("zone", map.rowZone(row));
        g.writeArrayFieldStart("rows");
        for (; row < map.rowCount() && map.rowSection(row) == section; row++) {
          g.writeStartObject();
          g.writeStringField("id", map.rowId(row));
          g.writeNumberField("seats", map.rowLength(row));
          g.writeArrayFieldStart("xy");
          for (int s = map.rowStart(row), end = s + map.rowLength(row); s < end; s++) {
            g.writeNumber(Math.round(map.x(s) * SCALE));
            g.writeNumber(Math.round(map.y(s) * SCALE));
          }
          g.writeEndArray();
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
    });
    String version = version(compactBody);
    byte[] jsonBody = write(mapper, g -> {
      header(g, eventId, name, map, prices, maxSeatsPerAccount);
      g.writeArrayFieldStart("seats");
      for (int s = 0; s < map.seatCount(); s++) {
        int row = map.rowOf(s);
        String zone = map.zones().get(map.rowZone(row));
        g.writeStartObject();
        g.writeStringField("seatId", map.seatId(s));
        g.writeStringField("section", map.sectionId(map.rowSection(row)));
        g.writeStringField("row", map.rowId(row));
        g.writeNumberField("number", map.seatNumber(s));
        g.writeStringField("zone", zone);
        g.writeNumberField("priceCents", prices.get(zone));
        g.writeNumberField("x", tenths(map.x(s)));
        g.writeNumberField("y", tenths(map.y(s)));
        g.writeEndObject();
      }
      g.writeEndArray();
    });
    return new Rendered(version, withVersion(version, jsonBody), withVersion(version, compactBody));
  }

  private static double tenths(float v) {
    return Math.round(v * SCALE) / (double) SCALE;
  }

  private static void header(JsonGenerator g, String eventId, String name, SeatMap map, Map<String, Integer> prices,
                             int maxSeatsPerAccount) throws IOException {
    g.writeStringField("eventId", eventId);
    g.writeStringField("name", name);
    g.writeStringField("venueName", map.layout().name());
    g.writeNumberField("maxSeatsPerAccount", maxSeatsPerAccount);
    g.writeNumberField("seatCount", map.seatCount());
    g.writeObjectFieldStart("prices");
    for (String z : map.zones()) g.writeNumberField(z, prices.get(z));
    g.writeEndObject();
  }

  private interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  /** The JSON object whose fields {@code body} writes. */
  private static byte[] write(ObjectMapper mapper, Body body) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
    try (JsonGenerator g = mapper.getFactory().createGenerator(out)) {
      g.writeStartObject();
      body.write(g);
      g.writeEndObject();
    }
    return out.toByteArray();
  }

  /** {@code {"version":"v",} + the rest of {@code body} after its opening brace. */
  private static byte[] withVersion(String version, byte[] body) {
    byte[] head = ("{\"version\":\"" + version + "\",").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] out = new byte[head.length + body.length - 1];
    System.arraycopy(head, 0, out, 0, head.length);
    System.arraycopy(body, 1, out, head.length, body.length - 1);
    return out;
  }

  private static String version(byte[] body) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new UncheckedIOException(new IOException(e));
    }
  }
}
