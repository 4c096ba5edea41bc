package io.boxoffice.cart.http;

import io.boxoffice.cart.ShopAdmission;
import io.boxoffice.edge.Api;
import io.boxoffice.inventory.EventInventory;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.CacheControl;
import org.apache.pekko.http.javadsl.model.headers.CacheDirectives;
import org.apache.pekko.http.javadsl.model.headers.ETag;
import org.apache.pekko.http.javadsl.model.headers.EntityTag;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.util.ByteString;

/**
 * What an admitted fan reads of the shop from this node's memory: the seat map (each rendering
 * made once per event and shared by every response) and the newest availability snapshot (its
 * response built once per snapshot). The routes and their guards are {@link ShopRoutes}'.
 */
final class SeatMapResponses extends AllDirectives {
  private final Api api;
  private final EventViews views;
  private final ShopAdmission admission;
  private final ShopSettings.SeatMapLimits limits;
  /** The response of each event's newest snapshot (events this node served; the snapshots themselves are kept by {@link EventViews} too). */
  private final Map<String, AvailabilityResponse> availabilityResponses = new ConcurrentHashMap<>();

  SeatMapResponses(Api api, EventViews views, ShopAdmission admission, ShopSettings.SeatMapLimits limits) {
    this.api = api;
    this.views = views;
    this.admission = admission;
    this.limits = limits;
  }

  /**
   * The seat map, rendered once per event: the contract's JSON, or the compact form with
   * {@code ?format=compact}; gzipped when the client accepts it (a 70,000-seat stadium is about
   * 8 MB as plain contract JSON). Each form and encoding has its own ETag.
   *
   * <p>A rendering over {@code max-plain-bytes} is sent only gzipped: a client that does not
   * accept gzip gets 406 {@code gzip_required} (a 200,000-seat map is 22 MB plain, 25 reads of it
   * half a gigabyte). A read costs the account and its network one token of their rate limits
   * per {@code bytes-per-token} sent, so the reads of large maps are limited by their size.
   */
  Route seatMap(String eventId, String accountId) {
    return parameterOptional("format", format -> {
      boolean compact = format.isPresent() && format.get().equals("compact");
      if (format.isPresent() && !compact) return complete(api.error(400, "bad_request", "format must be compact or absent"));
      return optionalHeaderValueByName("Accept-Encoding", accept -> {
        boolean gzip = accept.map(SeatMapResponses::acceptsGzip).orElse(false);
        return onSuccess(views.seatMap(eventId), view -> optionalHeaderValueByName("If-None-Match", etag -> {
          String version = view.version() + (compact ? "-c" : "") + (gzip ? "-gz" : "");
          String tag = "\"" + version + "\"";
          List<HttpHeader> headers = List.of(
              ETag.create(EntityTag.create(version, false)),
              RawHeader.create("Vary", "Accept-Encoding"),
              RawHeader.create("Cache-Control", "public, max-age=31536000, immutable"));
          byte[] plain = compact ? view.compact() : view.json();
          if (!gzip && plain.length > limits.maxPlainBytes()) {
            return complete(api.error(406, "gzip_required", String.format(Locale.ROOT,
                "this seat map is %,d bytes uncompressed and is sent only gzipped: ask with Accept-Encoding: gzip",
                plain.length)).addHeader(RawHeader.create("Vary", "Accept-Encoding")));
          }
          if (etag.map(t -> t.equals(tag)).orElse(false)) {
            return complete(HttpResponse.create().withStatus(304).addHeaders(headers));
          }
          byte[] body = gzip ? (compact ? view.compactGzip() : view.jsonGzip()) : plain;
          // One rendering shared by every response, never copied: a byte[] entity is copied per
          // response, and 4,000 shoppers reading a 7.9 MB stadium map at once ran a 2 GB heap out.
          HttpResponse response = HttpResponse.create().withStatus(200).addHeaders(headers)
              .withEntity(ContentTypes.APPLICATION_JSON, ByteString.fromArrayUnsafe(body));
          HttpResponse answer = gzip ? response.addHeader(RawHeader.create("Content-Encoding", "gzip")) : response;
          // The request's own token is taken at the door; the rest of the map's cost here.
          return admission.charged(accountId, limits.tokens(body.length) - 1, () -> complete(answer));
        }));
      });
    });
  }

  /** Whether an {@code Accept-Encoding} value allows gzip (listed, or by {@code *}, without {@code q=0}). */
  static boolean acceptsGzip(String acceptEncoding) {
    for (String part : acceptEncoding.toLowerCase(Locale.ROOT).split(",")) {
      String[] p = part.trim().split(";");
      String coding = p[0].trim();
      if (!coding.equals("gzip") && !coding.equals("x-gzip") && !coding.equals("*")) continue;
      boolean refused = false;
      for (int i = 1; i < p.length; i++) {
        String q = p[i].trim().replace(" ", "");
        if (q.startsWith("q=") && q.substring(2).matches("0(\\.0{0,3})?")) refused = true;
      }
      if (!refused) return true;
    }
    return false;
  }

  /**
   * The event's newest availability snapshot. Its response is built once per snapshot and
   * served as is to every reader until the next one (a 70,000-seat map is 17.5 KB: copied and
   * wrapped per request, it made a flood of readers cost the node far more than it needs to).
   */
  Route availability(String eventId) {
    return api.respond(views.availability(eventId).thenApply(a -> {
      AvailabilityResponse cached = availabilityResponses.get(eventId);
      if (cached != null && cached.snapshot() == a) return cached.response();
      HttpResponse response = HttpResponse.create().withStatus(200)
          .addHeader(RawHeader.create("X-Snapshot-Version", Long.toString(a.version())))
          .addHeader(CacheControl.create(CacheDirectives.PUBLIC, CacheDirectives.MAX_AGE(1)))
          .withEntity(ContentTypes.APPLICATION_OCTET_STREAM, a.bits());
      availabilityResponses.put(eventId, new AvailabilityResponse(a, response));
      return response;
    }));
  }

  private record AvailabilityResponse(EventInventory.Availability snapshot, HttpResponse response) {}
}
