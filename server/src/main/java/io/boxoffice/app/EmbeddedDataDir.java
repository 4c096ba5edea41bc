package io.boxoffice.app;

import com.typesafe.config.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded node's data directory ({@code boxoffice.data-dir}) holds password hashes, ticket
 * barcodes and the node's keys: it is owner-only (0700), and so is every file in it (0600),
 * whatever the process's umask. The directory is made owner-only before anything is written in
 * it, so a file that H2 creates later ({@code .trace.db}, temporary files) is out of others' reach
 * from its first byte even before {@link #ownerOnlyFiles} tightens it. Nothing is done on
 * PostgreSQL (no data directory is used) nor on a file system without POSIX permissions.
 */
final class EmbeddedDataDir {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedDataDir.class);
  static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
  static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

  private EmbeddedDataDir() {}

  /** The embedded database's directory, or null on PostgreSQL. */
  static Path of(Config config) {
    if (!NodeConfig.jdbcUrl(config).startsWith("jdbc:h2:file:")) return null;
    return Path.of(config.getString("boxoffice.data-dir")).toAbsolutePath().normalize();
  }

  /** Creates the directory owner-only, or makes an existing one owner-only (with a warning). */
  static void ownerOnlyDirectory(Config config) {
    Path dir = of(config);
    if (dir == null || !posix()) return;
    try {
      create(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the data directory " + dir + " owner-only", e);
    }
  }

  /** {@code dir} and its missing parents; {@code dir} itself owner-only. */
  static void create(Path dir) throws IOException {
    if (!posix()) {
      Files.createDirectories(dir);
      return;
    }
    if (!Files.isDirectory(dir)) {
      if (dir.getParent() != null) Files.createDirectories(dir.getParent());
      try {
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIRECTORY));
      } catch (java.nio.file.FileAlreadyExistsException raced) {
        // made by another at the same moment: tightened below
      }
    }
    // The umask may have taken bits of the attribute away; an existing directory may be wider.
    Set<PosixFilePermission> now = Files.getPosixFilePermissions(dir);
    if (!now.equals(DIRECTORY)) tighten(dir, DIRECTORY, DIRECTORY.containsAll(now));
  }

  /** Makes every file in the directory owner-only (the H2 database files once H2 has made them). */
  static void ownerOnlyFiles(Config config) {
    Path dir = of(config);
    if (dir == null || !posix() || !Files.isDirectory(dir)) return;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (!Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) continue;
        Set<PosixFilePermission> now = Files.getPosixFilePermissions(f);
        // H2 makes its files under the process's umask (0644 as a rule), inside the owner-only
        // directory: expected, so tightened without a warning.
        if (!now.equals(FILE)) tighten(f, FILE, true);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the files of " + dir + " owner-only", e);
    }
  }

  /** As {@link #ownerOnlyFiles}, logging instead of failing (when the node stops, nothing is left to fail). */
  static void ownerOnlyFilesQuietly(Config config) {
    try {
      ownerOnlyFiles(config);
    } catch (RuntimeException e) {
      log.warn("the data directory's files could not all be made owner-only: {}", e.toString());
    }
  }

  /**
   * Sets {@code path}'s permissions, warning when it was open to others and that was not
   * expected ({@code quiet}: a file H2 just made). A path this process may
   * not change (another user's, on a shared volume) is left as it is with a warning: the node
   * still starts, as it did before it tightened anything.
   */
  private static void tighten(Path path, Set<PosixFilePermission> wanted, boolean quiet) {
    try {
      Files.setPosixFilePermissions(path, wanted);
      if (!quiet) log.warn("{} was open to others than its owner: now owner-only ({})", path, PosixFilePermissions.toString(wanted));
    } catch (IOException e) {
      log.warn("{} is open to others than its owner and cannot be made owner-only ({}): it holds password hashes, barcodes"
          + " and keys; make it {} yourself", path, e.toString(), PosixFilePermissions.toString(wanted));
    }
  }

  private static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }
}
