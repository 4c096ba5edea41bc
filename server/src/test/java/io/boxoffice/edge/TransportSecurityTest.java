package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.RemoteAddress;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.junit.jupiter.api.Test;

/** TLS terminated at an Ingress: X-Forwarded-Proto counts only from a trusted proxy. */
class TransportSecurityTest {
  final TransportSecurity security = new TransportSecurity("max-age=31536000", 443,
      new ClientPrefix(List.of(ClientPrefix.Cidr.parse("10.0.0.0/8"))));
  final Function<HttpRequest, CompletionStage<HttpResponse>> routes =
      r -> CompletableFuture.completedFuture(HttpResponse.create());
  final Function<HttpRequest, CompletionStage<HttpResponse>> handler = security.behindProxy(routes);

  HttpResponse send(String peer, String... forwardedProto) throws Exception {
    HttpRequest request = HttpRequest.GET("http://shop.example/events/e1?x=1")
        .addAttribute(AttributeKeys.remoteAddress, RemoteAddress.create(InetAddress.getByName(peer)));
    // In the order they came, as the HTTP layer gives them.
    request = request.withHeaders(java.util.Arrays.stream(forwardedProto)
        .map(p -> (org.apache.pekko.http.javadsl.model.HttpHeader) RawHeader.create("X-Forwarded-Proto", p)).toList());
    return handler.apply(request).toCompletableFuture().get();
  }

  @Test
  void httpsFromTheIngressIsServedWithHsts() throws Exception {
    HttpResponse r = send("10.1.2.3", "https");
    assertEquals(200, r.status().intValue());
    assertEquals("max-age=31536000", r.getHeader("Strict-Transport-Security").orElseThrow().value());
  }

  @Test
  void plainHttpFromTheIngressIsRedirectedToTheSameHostAndPath() throws Exception {
    HttpResponse r = send("10.1.2.3", "http");
    assertEquals(308, r.status().intValue());
    assertEquals("https://shop.example/events/e1?x=1", r.getHeader("Location").orElseThrow().value());
  }

  @Test
  void theLastHopCountsAndAClientCannotClaimHttpsThroughTheIngress() throws Exception {
    // The client's own "https" first, the proxy's "http" appended: the proxy's is the truth.
    assertEquals(308, send("10.1.2.3", "https, http").status().intValue());
    assertEquals(308, send("10.1.2.3", "https", "http").status().intValue());
  }

  @Test
  void aHostilePathOrQueryIsRedirectedVerbatimNeverDecodedIntoTheLocation() throws Exception {
    Function<HttpRequest, CompletionStage<HttpResponse>> redirect = security.redirectAll();
    for (String target : new String[] {"/a%20b%0D%0ASet-Cookie:%20x=1", "/%2F%2Fevil.example/", "/e?next=%0D%0Ax&y=%E2%82%AC",
        "/%00%FF", "/" + "a".repeat(8000)}) {
      HttpResponse r = redirect.apply(HttpRequest.GET("http://shop.example" + target)).toCompletableFuture().get();
      assertEquals(308, r.status().intValue(), target);
      String location = r.getHeader("Location").orElseThrow().value();
      assertTrue(location.startsWith("https://shop.example/"), location);
      assertFalse(location.contains("\r") || location.contains("\n") || location.contains(" "), location);
    }
  }

  @Test
  void anUntrustedPeerCannotClaimHttps() throws Exception {
    HttpResponse r = send("192.0.2.7", "https");
    assertEquals(200, r.status().intValue());
    assertFalse(r.getHeader("Strict-Transport-Security").isPresent(), "HSTS only for what a trusted proxy says is https");
  }
}
