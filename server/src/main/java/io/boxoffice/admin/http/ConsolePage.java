package io.boxoffice.admin.http;

import java.util.List;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The managers' console: {@code GET /admin/console} and its script and style, from the jar. They
 * carry no data and need no token (the page asks for it, keeps it in sessionStorage and sends it
 * as a bearer token on every call). Scripts and styles come from this origin only, so nothing a
 * manager types (an event's name) can run as script; the page may not be framed.
 */
final class ConsolePage {
  static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self';"
      + " form-action 'none'; base-uri 'none'; frame-ancestors 'none'";
  private static final List<HttpHeader> HEADERS = List.of(
      RawHeader.create("Content-Security-Policy", CSP),
      RawHeader.create("Referrer-Policy", "no-referrer"),
      // Revalidated each time: a new version of the console is never mixed with an old script.
      RawHeader.create("Cache-Control", "no-cache"));

  private static final AllDirectives D = new AllDirectives() {};

  private ConsolePage() {}

  static Route routes() {
    return D.get(() -> D.respondWithHeaders(HEADERS, () -> D.concat(
        D.path("console", () -> D.getFromResource("web/console/console.html", ContentTypes.TEXT_HTML_UTF8)),
        D.path(org.apache.pekko.http.javadsl.server.PathMatchers.segment("console").slash("console.js"),
            () -> D.getFromResource("web/console/console.js", ContentTypes.create(
                org.apache.pekko.http.javadsl.model.MediaTypes.APPLICATION_JAVASCRIPT, org.apache.pekko.http.javadsl.model.HttpCharsets.UTF_8))),
        D.path(org.apache.pekko.http.javadsl.server.PathMatchers.segment("console").slash("console.css"),
            () -> D.getFromResource("web/console/console.css", ContentTypes.create(
                org.apache.pekko.http.javadsl.model.MediaTypes.TEXT_CSS, org.apache.pekko.http.javadsl.model.HttpCharsets.UTF_8))))));
  }
}
