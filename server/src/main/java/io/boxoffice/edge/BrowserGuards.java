package io.boxoffice.edge;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.headers.Cookie;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;

/**
 * What the edge does for every request a browser may send, once, around the whole handler
 * (the routing tree and the page fast path alike), so that no route can forget it:
 *
 * <ul>
 *   <li>Cross-site requests do not change state. A POST, PUT, PATCH or DELETE that carries the
 *       {@code bo_id} cookie, and sign-up and sign-in themselves (login CSRF signs a victim into
 *       the attacker's account), are refused with 403 {@code forbidden} when their {@code Origin}
 *       is not the request's own host and port, or when {@code Sec-Fetch-Site} says
 *       {@code cross-site}. No {@code Origin} at all (curl, storefront servers) is allowed:
 *       browsers send it on every cross-origin state-changing request.</li>
 *   <li>Nothing is cached unless a route says so: a response without {@code Cache-Control}
 *       (sessions, carts, orders, tickets with barcodes, queue status, errors) gets
 *       {@code private, no-store}.</li>
 *   <li>Pages cannot be framed (the shop's Buy button clickjacked): every HTML response carries
 *       {@code Content-Security-Policy: frame-ancestors 'none'} and {@code X-Frame-Options: DENY}.</li>
 * </ul>
 */
public final class BrowserGuards {
  private static final RawHeader NO_STORE = RawHeader.create("Cache-Control", "private, no-store");
  private static final RawHeader NO_FRAMES = RawHeader.create("Content-Security-Policy", "frame-ancestors 'none'");
  private static final RawHeader DENY_FRAMES = RawHeader.create("X-Frame-Options", "DENY");
  private static final RawHeader NO_SNIFF = RawHeader.create("X-Content-Type-Options", "nosniff");

  private final Api api;

  public BrowserGuards(Api api) {
    this.api = api;
  }

  /** {@code handler} behind the cross-site check, its responses with the default headers. */
  public Function<HttpRequest, CompletionStage<HttpResponse>> around(Function<HttpRequest, CompletionStage<HttpResponse>> handler) {
    return request -> {
      CompletionStage<HttpResponse> response = crossSiteChange(request)
          ? CompletableFuture.completedFuture(api.error(403, "forbidden", "cross-site requests may not change state"))
          : handler.apply(request);
      return response.thenApply(BrowserGuards::withDefaults);
    };
  }

  /**
   * {@code response} with the defaults it lacks; itself when it has them all (a page built once
   * with them: {@code PageRoutes}), so that the crowd's most repeated answer is not copied per request.
   */
  public static HttpResponse withDefaults(HttpResponse response) {
    boolean html = response.entity().getContentType().mediaType().equals(MediaTypes.TEXT_HTML);
    boolean sniff = false;
    boolean cache = false;
    boolean frames = !html;
    boolean deny = !html;
    // The model's own list, not its Java view (a conversion per response otherwise).
    scala.collection.Iterator<org.apache.pekko.http.scaladsl.model.HttpHeader> headers =
        ((org.apache.pekko.http.scaladsl.model.HttpResponse) response).headers().iterator();
    while (headers.hasNext()) {
      HttpHeader h = headers.next();
      if (h.equals(NO_SNIFF)) sniff = true;
      else if (h.is("cache-control")) cache = true;
      else if (h.equals(NO_FRAMES)) frames = true;
      else if (h.equals(DENY_FRAMES)) deny = true;
    }
    HttpResponse out = response;
    if (!sniff) out = out.addHeader(NO_SNIFF);
    if (!cache) out = out.addHeader(NO_STORE);
    if (!frames) out = out.addHeader(NO_FRAMES);
    if (!deny) out = out.addHeader(DENY_FRAMES);
    return out;
  }

  /** Whether {@code request} would change state on behalf of a browser session from another site. */
  static boolean crossSiteChange(HttpRequest request) {
    if (!changesState(request) || !(carriesIdentity(request) || signsIn(request))) return false;
    Optional<String> site = header(request, "sec-fetch-site");
    if (site.isPresent() && site.get().trim().equalsIgnoreCase("cross-site")) return true;
    Optional<String> origin = header(request, "origin");
    return origin.isPresent() && !sameOrigin(origin.get(), header(request, "host").orElse(""));
  }

  private static boolean changesState(HttpRequest request) {
    var m = request.method();
    return m == HttpMethods.POST || m == HttpMethods.PUT || m == HttpMethods.PATCH || m == HttpMethods.DELETE;
  }

  private static boolean signsIn(HttpRequest request) {
    String path = request.getUri().path();
    return path.equals("/api/session") || path.equals("/api/accounts");
  }

  private static boolean carriesIdentity(HttpRequest request) {
    for (var h : request.getHeaders()) {
      if (h instanceof Cookie cookie) {
        for (var pair : cookie.getCookies()) {
          if (pair.name().equals(IdentityToken.COOKIE)) return true;
        }
      }
    }
    return false;
  }

  private static Optional<String> header(HttpRequest request, String lowercaseName) {
    for (var h : request.getHeaders()) {
      if (h.lowercaseName().equals(lowercaseName)) return Optional.of(h.value());
    }
    return Optional.empty();
  }

  /** Whether {@code origin} ({@code scheme://host[:port]}) names the host and port of the {@code Host} header. */
  static boolean sameOrigin(String origin, String host) {
    try {
      URI o = new URI(origin.trim());
      if (o.getScheme() == null || o.getHost() == null || host.isBlank()) return false;
      URI h = new URI("//" + host.trim());
      if (h.getHost() == null) return false;
      int originPort = o.getPort() >= 0 ? o.getPort() : defaultPort(o.getScheme());
      int hostPort = h.getPort() >= 0 ? h.getPort() : defaultPort(o.getScheme());
      return o.getHost().toLowerCase(Locale.ROOT).equals(h.getHost().toLowerCase(Locale.ROOT)) && originPort == hostPort;
    } catch (java.net.URISyntaxException e) {
      return false;
    }
  }

  private static int defaultPort(String scheme) {
    return scheme.equalsIgnoreCase("https") ? 443 : scheme.equalsIgnoreCase("http") ? 80 : -1;
  }
}
