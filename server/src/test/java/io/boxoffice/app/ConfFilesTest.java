package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * HOCON merges an object declared twice without a word, and the later value of a setting wins:
 * {@code boxoffice.conf} once declared {@code queue {}} twice, and an operator editing the first
 * block changed nothing. Each object of our configuration files is declared in one place.
 */
class ConfFilesTest {
  private static final Pattern OPEN = Pattern.compile("^\\s*\"?([A-Za-z0-9_.-]+)\"?\\s*[=:]?\\s*\\{\\s*(#.*)?$");
  private static final Pattern CLOSE = Pattern.compile("^\\s*\\}\\s*(#.*)?$");

  @Test
  void everyObjectOfTheConfigurationIsDeclaredOnce() throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(Path.of("conf"))) {
      files = s.filter(p -> p.toString().endsWith(".conf")).sorted().toList();
    }
    assertTrue(files.size() >= 2, "conf/*.conf found: " + files);
    List<String> duplicates = new ArrayList<>();
    for (Path file : files) duplicates.addAll(duplicateObjects(Files.readAllLines(file)).stream().map(d -> file + ": " + d).toList());
    assertEquals(List.of(), duplicates);
  }

  @Test
  void theCheckFindsAnObjectDeclaredTwice() {
    List<String> conf = List.of("boxoffice {", "  queue {", "    tick = 1s", "  }", "  inventory {", "  }",
        "  queue {", "    admission-window = 30m", "  }", "}");
    assertEquals(List.of("boxoffice.queue"), duplicateObjects(conf));
  }

  /** Paths of objects opened a second time; only whole-line openings and closings are tracked. */
  static List<String> duplicateObjects(List<String> lines) {
    Deque<String> path = new ArrayDeque<>();
    Set<String> seen = new HashSet<>();
    List<String> duplicates = new ArrayList<>();
    for (String line : lines) {
      Matcher open = OPEN.matcher(line);
      if (open.matches()) {
        String full = (path.isEmpty() ? "" : path.peekLast() + ".") + open.group(1);
        path.addLast(full);
        if (!seen.add(full)) duplicates.add(full);
      } else if (CLOSE.matcher(line).matches() && !path.isEmpty()) {
        path.removeLast();
      }
    }
    return duplicates;
  }
}
