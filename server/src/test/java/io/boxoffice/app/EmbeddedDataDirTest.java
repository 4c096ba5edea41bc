package io.boxoffice.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded node's data directory is owner-only, and so is every file in it (issue 31, finding 12). */
class EmbeddedDataDirTest {
  @TempDir Path tmp;

  static Config embedded(Path dir) {
    return ConfigFactory.parseMap(Map.of("boxoffice.db.url", "", "boxoffice.data-dir", dir.toString()))
        .withFallback(ConfigFactory.load());
  }

  static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void aNewDirectoryIsMadeOwnerOnlyWithItsParents() throws Exception {
    Path dir = tmp.resolve("a/b/data");
    EmbeddedDataDir.ownerOnlyDirectory(embedded(dir));
    assertEquals("rwx------", mode(dir));
  }

  @Test
  void anExistingWideDirectoryAndItsFilesAreTightened() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("data"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path db = Files.writeString(dir.resolve("boxoffice.mv.db"), "x");
    Path trace = Files.writeString(dir.resolve("boxoffice.trace.db"), "x");
    Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("rw-r--r--"));
    Files.setPosixFilePermissions(trace, PosixFilePermissions.fromString("rw-rw-rw-"));
    Config config = embedded(dir);
    EmbeddedDataDir.ownerOnlyDirectory(config);
    EmbeddedDataDir.ownerOnlyFiles(config);
    assertEquals("rwx------", mode(dir));
    assertEquals("rw-------", mode(db));
    assertEquals("rw-------", mode(trace));
  }

  @Test
  void onPostgreSqlNoDirectoryIsMade() throws Exception {
    Path dir = tmp.resolve("unused");
    Config pg = ConfigFactory.parseMap(Map.of("boxoffice.db.url", "jdbc:postgresql://127.0.0.1/test", "boxoffice.data-dir", dir.toString()))
        .withFallback(ConfigFactory.load());
    EmbeddedDataDir.ownerOnlyDirectory(pg);
    EmbeddedDataDir.ownerOnlyFiles(pg);
    assertFalse(Files.exists(dir));
  }
}
