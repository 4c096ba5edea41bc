package io.boxoffice.edge;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.headers.RetryAfter;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The per-request facts every fan-facing route shares: the client network prefix (from the TCP
 * peer, or from X-Forwarded-For behind a trusted proxy) and the token-bucket rate limits per
 * account and per prefix, answered with 429 + Retry-After. Requests the door refuses (no valid
 * sign-in) take from a per-prefix bucket of their own ({@link #refused}).
 */
public final class FanContext extends AllDirectives {
  private final ClientPrefix prefixes;
  private final TokenBuckets perAccount;
  private final TokenBuckets perPrefix;
  private final Api api;

  public FanContext(ClientPrefix prefixes, TokenBuckets perAccount, TokenBuckets perPrefix, Api api) {
    this.prefixes = prefixes;
    this.perAccount = perAccount;
    this.perPrefix = perPrefix;
    this.api = api;
  }

  /** The client network prefix of the request, e.g. {@code 203.0.113.0/24}. */
  public Route prefix(Function<String, Route> inner) {
    return extractRequest(request -> inner.apply(prefixOf(prefixes, request)));
  }

  /**
   * The client network prefix of {@code request}: its TCP peer and all of its
   * {@code X-Forwarded-For} lines, in order. Every route and page derives the prefix here.
   */
  public static String prefixOf(ClientPrefix prefixes, HttpRequest request) {
    InetAddress peer = request.getAttribute(AttributeKeys.remoteAddress).flatMap(a -> a.getAddress())
        .orElseGet(InetAddress::getLoopbackAddress);
    List<String> forwarded = new ArrayList<>();
    for (HttpHeader h : request.getHeaders()) {
      if (h.lowercaseName().equals("x-forwarded-for")) forwarded.add(h.value());
    }
    return prefixes.of(peer, forwarded);
  }

  /** Runs {@code inner} if both the account's and the prefix's buckets have a token, else 429. */
  public Route limited(String account, String prefix, Supplier<Route> inner) {
    return limited(account, prefix, 1, inner);
  }

  /**
   * Runs {@code inner} if both the account's and the prefix's buckets have {@code tokens} tokens
   * (a request that costs the node more than most, such as a large seat map), else 429. More
   * than a bucket holds takes the whole bucket.
   */
  public Route limited(String account, String prefix, int tokens, Supplier<Route> inner) {
    TokenBuckets.Decision byAccount = perAccount.tryTake(account, tokens);
    if (!byAccount.allowed()) return tooMany(byAccount.retryAfterSeconds());
    TokenBuckets.Decision byPrefix = perPrefix.tryTake(prefix, tokens);
    if (!byPrefix.allowed()) return tooMany(byPrefix.retryAfterSeconds());
    return inner.get();
  }

  /**
   * Answers a request the door refuses ({@code refusal}, e.g. 401 for a missing or forged
   * sign-in) if the request's network still has a token in {@code refusals}, else 429. A flood
   * of junk cookies from one network meets 429 + Retry-After as soon as that network's burst of
   * refusals is spent. The budget is not the one of the network's signed-in fans, so the junk
   * does not lock them out, and other networks are untouched.
   */
  public Route refused(TokenBuckets refusals, Supplier<Route> refusal) {
    return prefix(prefix -> {
      TokenBuckets.Decision byPrefix = refusals.tryTake(prefix);
      if (!byPrefix.allowed()) return tooMany(byPrefix.retryAfterSeconds());
      return refusal.get();
    });
  }

  private Route tooMany(long retryAfterSeconds) {
    return complete(api.json(429, java.util.Map.of("error", "rate_limited", "message", "too many requests, slow down"))
        .addHeader(RetryAfter.create(Math.max(1, retryAfterSeconds))));
  }
}
