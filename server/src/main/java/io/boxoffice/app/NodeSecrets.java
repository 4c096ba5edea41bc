package io.boxoffice.app;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.boxoffice.common.Hmac;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's keys and bearer tokens, settled before anything starts. A configured value wins.
 * On the embedded database the ones not configured are made once and kept, owner-only, in
 * {@code <data-dir>/keys.properties}, so that a restart changes nothing for fans, tickets or
 * codes. On PostgreSQL every node of a cluster must share them, so each must be configured.
 * Tokens under 32 characters and template placeholders ({@code REPLACE_ME}) are refused.
 * Each value, and the database login, may instead come from a file named by
 * {@code <VARIABLE>_FILE} (a mounted Kubernetes Secret), which keeps it out of the environment.
 */
public final class NodeSecrets {
  private static final Logger log = LoggerFactory.getLogger(NodeSecrets.class);

  public static final String FILE = "keys.properties";
  public static final int MIN_TOKEN_CHARS = 32;
  public static final int MIN_KEY_BYTES = 32;
  /** Text of templates and examples, never of a real secret; compared without case. */
  static final List<String> PLACEHOLDERS = List.of("replace_me", "replace-me", "replaceme", "changeme", "change_me",
      "change-me", "placeholder");
  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

  /** A bearer token or an HMAC key, by its configuration path and its environment variable. */
  public record Secret(String path, String env, boolean token, boolean generated) {}

  public static final List<Secret> SECRETS = List.of(
      new Secret("boxoffice.secrets.admin-token", "BOXOFFICE_ADMIN_TOKEN", true, true),
      new Secret("boxoffice.secrets.gate-token", "BOXOFFICE_GATE_TOKEN", true, true),
      new Secret("boxoffice.secrets.identity-key", "BOXOFFICE_IDENTITY_KEY", false, true),
      new Secret("boxoffice.secrets.ticket-key", "BOXOFFICE_TICKET_KEY", false, true),
      new Secret("boxoffice.queue.keys.active", "BOXOFFICE_QUEUE_KEY", false, true),
      new Secret("boxoffice.queue.keys.previous", "BOXOFFICE_QUEUE_KEY_PREVIOUS", false, false),
      new Secret("boxoffice.bots.presale-key", "BOXOFFICE_PRESALE_KEY", false, true),
      new Secret("boxoffice.bots.pow-key", "BOXOFFICE_POW_KEY", false, true));

  /**
   * Variables whose value may be read from the file that {@code <VARIABLE>_FILE} names, and the
   * setting each fills: the keys and tokens above, the database login and Stripe's keys.
   */
  public static final Map<String, String> FILE_VARIABLES = fileVariables();

  private static Map<String, String> fileVariables() {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    for (Secret s : SECRETS) out.put(s.env(), s.path());
    out.put("BOXOFFICE_DB_USER", NodeConfig.DB + ".db.user");
    out.put("BOXOFFICE_DB_PASSWORD", NodeConfig.DB + ".db.password");
    // Stripe's keys (checked where they are used: PaymentsModule, only with provider = stripe).
    out.put("BOXOFFICE_STRIPE_SECRET_KEY", "boxoffice.payments.stripe.secret-key");
    out.put("BOXOFFICE_STRIPE_WEBHOOK_SECRET", "boxoffice.payments.stripe.webhook-secret");
    return java.util.Collections.unmodifiableMap(out);
  }

  /** Why a node does not start; the message names what to set and how. */
  public static final class Refused extends IllegalStateException {
    public Refused(String message) {
      super(message);
    }
  }

  private NodeSecrets() {}

  /**
   * {@code config} (already resolved by {@link NodeConfig#resolve}) with every secret filled in,
   * or {@link Refused} when one is missing on PostgreSQL, too short or a placeholder.
   */
  public static Config resolve(Config config) {
    return resolve(config, System.getenv());
  }

  static Config resolve(Config resolved, Map<String, String> env) {
    Config config = fromFiles(resolved, env);
    boolean embedded = !NodeConfig.jdbcUrl(config).startsWith("jdbc:postgresql:");
    List<String> problems = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (Secret s : SECRETS) {
      String value = config.getString(s.path()).trim();
      if (value.isEmpty()) {
        if (s.generated()) missing.add(s.env());
      } else {
        String problem = problem(s, value);
        if (problem != null) problems.add(s.env() + " (" + s.path() + ") " + problem);
      }
    }
    if (!problems.isEmpty()) {
      throw new Refused("boxoffice refuses to start: " + String.join("; ", problems)
          + ". HMAC keys: base64 of 32 random bytes (openssl rand -base64 32); tokens: at least "
          + MIN_TOKEN_CHARS + " random characters (openssl rand -base64 32).");
    }
    if (missing.isEmpty()) return config;
    if (!embedded) {
      throw new Refused("boxoffice refuses to start on PostgreSQL without its keys: every node of a cluster must share "
          + "them, so they cannot be made up here. Set " + String.join(", ", missing)
          + " (HMAC keys: openssl rand -base64 32; tokens: at least " + MIN_TOKEN_CHARS
          + " random characters), the same values on every node.");
    }
    Path file = Path.of(config.getString("boxoffice.data-dir")).toAbsolutePath().normalize().resolve(FILE);
    Map<String, Object> filled = new HashMap<>();
    for (Map.Entry<String, String> e : kept(file, missing).entrySet()) {
      SECRETS.stream().filter(s -> s.env().equals(e.getKey())).findFirst()
          .ifPresent(s -> filled.put(s.path(), e.getValue()));
    }
    return ConfigFactory.parseMap(filled).withFallback(config);
  }

  /**
   * {@code config} with every setting of {@link #FILE_VARIABLES} whose {@code _FILE} variable is
   * set replaced by that file's content (surrounding white space dropped); {@link Refused} when
   * the file cannot be read. The file wins over the variable itself.
   */
  static Config fromFiles(Config config, Map<String, String> env) {
    Map<String, Object> read = new HashMap<>();
    for (Map.Entry<String, String> e : FILE_VARIABLES.entrySet()) {
      String variable = e.getKey() + "_FILE";
      String name = env.getOrDefault(variable, "").trim();
      if (name.isEmpty()) continue;
      try {
        read.put(e.getValue(), Files.readString(Path.of(name), StandardCharsets.UTF_8).strip());
      } catch (IOException | java.nio.file.InvalidPathException x) {
        throw new Refused("boxoffice refuses to start: " + variable + " names " + name + ", which cannot be read as text ("
            + x.getClass().getSimpleName() + "); mount the Secret there or unset " + variable);
      }
    }
    return read.isEmpty() ? config : ConfigFactory.parseMap(read).withFallback(config);
  }

  /** What is wrong with a configured value, or null when it is fit to use. The value itself is never repeated. */
  static String problem(Secret s, String value) {
    String lower = value.toLowerCase(Locale.ROOT);
    for (String p : PLACEHOLDERS) {
      if (lower.contains(p)) return "is a placeholder (" + p.toUpperCase(Locale.ROOT) + "), not a secret";
    }
    if (s.token()) {
      if (value.length() < MIN_TOKEN_CHARS) {
        return "is " + value.length() + " characters long; a token needs at least " + MIN_TOKEN_CHARS;
      }
      return null;
    }
    byte[] key = decode(value);
    if (key == null) return "is not base64";
    if (key.length < MIN_KEY_BYTES) return "is " + key.length + " bytes; an HMAC key needs at least " + MIN_KEY_BYTES;
    return null;
  }

  /** Standard or URL-safe base64, as {@link Hmac#fromBase64OrRandom} reads it; null when neither. */
  static byte[] decode(String value) {
    try {
      return Hmac.decode(value);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The kept values of {@code wanted} from the file, each made now and written down if it is not there yet. */
  private static Map<String, String> kept(Path file, List<String> wanted) {
    try {
      Properties props = new Properties();
      if (Files.exists(file)) {
        ownerOnly(file);
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
          props.load(r);
        }
      }
      Map<String, String> out = new HashMap<>();
      List<Secret> made = new ArrayList<>();
      for (String env : wanted) {
        Secret s = SECRETS.stream().filter(x -> x.env().equals(env)).findFirst().orElseThrow();
        String value = props.getProperty(env, "").trim();
        if (value.isEmpty()) {
          value = generate(s);
          props.setProperty(env, value);
          made.add(s);
        } else {
          String problem = problem(s, value);
          if (problem != null) throw new Refused("boxoffice refuses to start: " + env + " in " + file + " " + problem
              + "; delete that line to have a new one made (what it signed stops working) or set " + env);
        }
        out.put(env, value);
      }
      if (!made.isEmpty()) write(file, props);
      for (Secret s : made) {
        if (s.token()) {
          // Printed once, when made: the operator needs it and it is not in any configuration.
          System.out.println(s.env() + " is not set: generated one, kept in " + file + ": " + props.getProperty(s.env()));
        }
      }
      if (made.size() < wanted.size()) log.info("keys not configured are read from {}", file);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep the node's keys in " + file, e);
    }
  }

  private static String generate(Secret s) {
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    return s.token() ? Base64.getUrlEncoder().withoutPadding().encodeToString(b) : Base64.getEncoder().encodeToString(b);
  }

  /** Writes the whole file anew, owner-only from its first byte, and moves it in place at once. */
  private static void write(Path file, Properties props) throws IOException {
    EmbeddedDataDir.create(file.getParent());
    Path tmp = file.resolveSibling(FILE + ".tmp");
    Files.deleteIfExists(tmp);
    if (posix()) {
      Files.createFile(tmp, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    } else {
      Files.createFile(tmp);
    }
    StringWriter text = new StringWriter();
    props.store(text, "boxoffice: keys made by this node (embedded database). Owner-only; keep it with the data. "
        + "Configured values (BOXOFFICE_...) win over these.");
    try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING)) {
      w.write(text.toString());
    }
    try {
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
    }
    ownerOnly(file);
  }

  private static void ownerOnly(Path file) throws IOException {
    if (!posix()) return;
    if (!Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
      log.warn("{} was readable by others than its owner: now owner-only (0600)", file);
      Files.setPosixFilePermissions(file, OWNER_ONLY);
    }
  }

  private static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }
}
