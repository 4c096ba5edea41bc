package io.boxoffice.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * The requests a browser opened with {@code Chromium.open(w, h, true)} sent over the network
 * since the log was last read: DevTools' {@code Network.requestWillBeSent}, less the ones the
 * browser answered from its own cache ({@code Network.requestServedFromCache}). Reading the log
 * empties it.
 */
public final class NetworkLog {
  /** One request that left the browser: method and path (with its query). */
  public record Request(String method, String path) {}

  private NetworkLog() {}

  /** The requests to {@code origin} (scheme, host and port, such as {@code http://127.0.0.1:8080}) since the last read. */
  public static List<Request> drain(ChromeDriver driver, String origin) {
    Map<String, Request> sent = new LinkedHashMap<>();
    Set<String> fromCache = new HashSet<>();
    for (LogEntry entry : driver.manage().logs().get(LogType.PERFORMANCE)) {
      JsonNode message;
      try {
        message = HttpFan.JSON.readTree(entry.getMessage()).path("message");
      } catch (Exception e) {
        continue;
      }
      String method = message.path("method").asText();
      JsonNode params = message.path("params");
      if (method.equals("Network.requestWillBeSent")) {
        String url = params.path("request").path("url").asText();
        if (!url.startsWith(origin + "/")) continue;
        URI uri = URI.create(url);
        String path = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        // A redirect sends again under the same id: each hop is a request of its own.
        sent.put(params.path("requestId").asText() + "#" + sent.size(), new Request(params.path("request").path("method").asText(), path));
      } else if (method.equals("Network.requestServedFromCache")) {
        fromCache.add(params.path("requestId").asText());
      }
    }
    List<Request> out = new ArrayList<>();
    sent.forEach((id, r) -> {
      if (!fromCache.contains(id.substring(0, id.lastIndexOf('#')))) out.add(r);
    });
    return out;
  }
}
