package io.boxoffice.edge;

import java.net.InetAddress;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.headers.Location;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;

/**
 * What HTTPS changes for every request, around the routes: the plain port only redirects to
 * HTTPS (308, same host and path, so a POST stays a POST), HTTPS answers carry
 * {@code Strict-Transport-Security}, and behind a proxy that terminates TLS (an Ingress) its
 * {@code X-Forwarded-Proto} says which of the two a request was, when the peer is a trusted proxy.
 * Management endpoints are on their own port and not affected.
 */
public final class TransportSecurity {
  public static final String FORWARDED_PROTO = "X-Forwarded-Proto";
  private static final String HSTS = "Strict-Transport-Security";
  /** A DNS name or an IPv4 address; an IPv6 literal comes bracketed. Nothing else goes into a Location. */
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\\[[0-9A-Fa-f:.]{2,45}\\]");

  private final String strictTransportSecurity;
  private final int httpsPort;
  private final ClientPrefix proxies;

  /**
   * @param strictTransportSecurity the HSTS header value ({@code max-age=31536000}), empty for none
   * @param httpsPort the port in the redirects' Location (omitted when 443)
   * @param proxies whose {@code X-Forwarded-Proto} counts
   */
  public TransportSecurity(String strictTransportSecurity, int httpsPort, ClientPrefix proxies) {
    if (httpsPort <= 0 || httpsPort > 65535) throw new IllegalArgumentException("the HTTPS port must be 1 to 65535");
    this.strictTransportSecurity = strictTransportSecurity.trim();
    this.httpsPort = httpsPort;
    this.proxies = proxies;
  }

  /** The HTTPS listener's handler: {@code routes}, every answer with HSTS. */
  public Function<HttpRequest, CompletionStage<HttpResponse>> https(Function<HttpRequest, CompletionStage<HttpResponse>> routes) {
    return request -> routes.apply(request).thenApply(this::withHsts);
  }

  /** The plain port's handler when the node serves HTTPS itself: a redirect for everything. */
  public Function<HttpRequest, CompletionStage<HttpResponse>> redirectAll() {
    return request -> CompletableFuture.completedFuture(redirect(request));
  }

  /**
   * The plain port's handler behind a TLS-terminating proxy: a request a trusted proxy says came
   * as {@code https} is served with HSTS, one it says came as {@code http} is redirected, and any
   * other (no header, or a peer that is not a trusted proxy) is served as it is.
   */
  public Function<HttpRequest, CompletionStage<HttpResponse>> behindProxy(
      Function<HttpRequest, CompletionStage<HttpResponse>> routes) {
    return request -> switch (forwardedProto(request)) {
      case "https" -> routes.apply(request).thenApply(this::withHsts);
      case "http" -> CompletableFuture.completedFuture(redirect(request));
      default -> routes.apply(request);
    };
  }

  /** {@code https}, {@code http}, or empty: the last {@code X-Forwarded-Proto} value, from a trusted proxy only. */
  String forwardedProto(HttpRequest request) {
    Optional<InetAddress> peer = request.getAttribute(AttributeKeys.remoteAddress).flatMap(a -> a.getAddress());
    if (peer.isEmpty() || !proxies.isTrusted(peer.get())) return "";
    String last = "";
    for (HttpHeader h : request.getHeaders()) {
      if (h.is("x-forwarded-proto")) {
        String[] hops = h.value().split(",");
        last = hops.length == 0 ? "" : hops[hops.length - 1].trim().toLowerCase(java.util.Locale.ROOT);
      }
    }
    return last.equals("https") || last.equals("http") ? last : "";
  }

  HttpResponse withHsts(HttpResponse response) {
    if (strictTransportSecurity.isEmpty() || response.getHeader(HSTS).isPresent()) return response;
    return response.addHeader(RawHeader.create(HSTS, strictTransportSecurity));
  }

  /** 308 to the same host and path (and query) on HTTPS; 400 for a Host that cannot be put in a Location. */
  HttpResponse redirect(HttpRequest request) {
    String host = request.getUri().host().address();
    if (host.indexOf(':') >= 0 && !host.startsWith("[")) host = "[" + host + "]";
    if (!HOST.matcher(host).matches()) {
      return HttpResponse.create().withStatus(StatusCodes.BAD_REQUEST).withEntity(ContentTypes.APPLICATION_JSON,
          "{\"error\":\"bad_request\",\"message\":\"Use HTTPS, with a valid Host header.\"}");
    }
    StringBuilder location = new StringBuilder("https://").append(host);
    if (httpsPort != 443) location.append(':').append(httpsPort);
    String path = request.getUri().path();
    location.append(path.isEmpty() ? "/" : path);
    request.getUri().rawQueryString().ifPresent(q -> location.append('?').append(q));
    return HttpResponse.create().withStatus(StatusCodes.PERMANENT_REDIRECT)
        .addHeader(Location.create(location.toString()))
        .addHeader(RawHeader.create("Cache-Control", "no-store"))
        .withEntity(ContentTypes.APPLICATION_JSON, "{\"error\":\"https_required\",\"message\":\"Use HTTPS.\"}");
  }
}
