package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * conf/logback.xml: human lines by default, JSON lines (logback's JsonEncoder) when
 * BOXOFFICE_LOG_FORMAT=JSON, as the Kubernetes ConfigMap sets it.
 */
class LogFormatTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

  /** What conf/logback.xml prints for one line about an event, with the given format (null: unset). */
  static List<String> printed(String format) throws Exception {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(MDC.getMDCAdapter());
    if (format != null) context.putProperty("BOXOFFICE_LOG_FORMAT", format);
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      configurator.doConfigure(Path.of("conf/logback.xml").toFile());
      MDC.put("eventId", "e-log-1");
      MDC.put("traceId", TRACE_ID);
      context.getLogger("io.boxoffice.test").info("sold {} seats", 2);
      MDC.remove("eventId");
      MDC.remove("traceId");
      context.stop();
    } finally {
      System.setOut(out);
    }
    return captured.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("sold")).toList();
  }

  @Test
  void jsonLinesWhenTheVariableSaysJson() throws Exception {
    List<String> lines = printed("JSON");
    assertEquals(1, lines.size(), lines.toString());
    JsonNode line = JSON.readTree(lines.get(0));
    assertEquals("INFO", line.path("level").asText());
    assertEquals("io.boxoffice.test", line.path("loggerName").asText());
    assertEquals("sold {} seats", line.path("message").asText(), line.toString());
    assertEquals(2, line.path("arguments").path(0).asInt(), line.toString());
    assertEquals("e-log-1", line.path("mdc").path("eventId").asText(), "the event id travels with the line: " + line);
    assertEquals(TRACE_ID, line.path("mdc").path("traceId").asText(), "so does the trace id: " + line);
  }

  @Test
  void humanLinesByDefault() throws Exception {
    List<String> lines = printed(null);
    assertEquals(1, lines.size(), lines.toString());
    assertFalse(lines.get(0).startsWith("{"), lines.get(0));
    assertTrue(lines.get(0).contains("eventId=e-log-1") && lines.get(0).contains("INFO") && lines.get(0).contains("sold 2 seats"), lines.get(0));
    assertTrue(lines.get(0).contains("traceId=" + TRACE_ID), "the trace id of the request being handled: " + lines.get(0));
  }
}
