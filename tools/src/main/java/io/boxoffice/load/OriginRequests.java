package io.boxoffice.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The requests a node has answered, by kind of route, from its own counters: what reached the origin. */
public final class OriginRequests {
  private static final Pattern COUNT = Pattern.compile("^boxoffice_http_request_seconds_count\\{([^}]*)\\}\\s+([0-9.eE+]+)");
  private static final Pattern ROUTE = Pattern.compile("route=\"([a-z_]+)\"");

  private OriginRequests() {}

  /** route -> requests answered so far (every status class), from the Prometheus text at {@code metricsUrl}. */
  public static Map<String, Long> byRoute(String metricsUrl) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    String text = client.send(HttpRequest.newBuilder(URI.create(metricsUrl)).timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString()).body();
    Map<String, Long> out = new TreeMap<>();
    for (String line : text.split("\n")) {
      Matcher m = COUNT.matcher(line);
      if (!m.find()) continue;
      Matcher r = ROUTE.matcher(m.group(1));
      if (r.find()) out.merge(r.group(1), (long) Double.parseDouble(m.group(2)), Long::sum);
    }
    return out;
  }

  /** Every request in {@code byRoute}. */
  public static long total(Map<String, Long> byRoute) {
    return byRoute.values().stream().mapToLong(Long::longValue).sum();
  }
}
