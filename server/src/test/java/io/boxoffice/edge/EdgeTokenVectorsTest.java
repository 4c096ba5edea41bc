package io.boxoffice.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.boxoffice.common.Hmac;
import io.boxoffice.queue.domain.QueueToken;
import io.boxoffice.queue.domain.QueueTokenSettings;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The shared test vectors of the edge worker (edge-worker/test/token-vectors.json): queue and
 * identity tokens, keys, times, client networks and the verdicts of the real {@link QueueToken},
 * {@link IdentityToken} and {@link ClientPrefix}, built deterministically (fixed keys, fixed
 * clock). This test fails when the committed file differs from what the Java side says today,
 * so a change of format, leeway or binding cannot pass here without the worker's tests seeing
 * the new vectors. Run with {@code -Dvectors.write=true} to rewrite the file after such a change.
 */
class EdgeTokenVectorsTest {
  static final Path FILE = Path.of("edge-worker", "test", "token-vectors.json");
  static final Instant T0 = Instant.parse("2026-12-05T10:00:00Z");
  /** The shipped settings (conf/boxoffice.conf): the worker's defaults and wrangler.toml must say the same. */
  static final com.typesafe.config.Config SHIPPED = com.typesafe.config.ConfigFactory.load().getConfig("boxoffice.queue");
  static final Duration TTL = SHIPPED.getDuration("token-ttl");
  static final Duration WINDOW = SHIPPED.getDuration("admission-window");
  static final Duration SKEW = SHIPPED.getDuration("clock-skew");
  static final long LOBBY_INDEX = 1L << 62;

  /** A fixed key: bytes 0..n-1 plus a seed, so the file is the same on every run. */
  static byte[] key(int seed, int length) {
    byte[] k = new byte[length];
    for (int i = 0; i < length; i++) k[i] = (byte) (seed * 31 + i * 7);
    return k;
  }

  static final Map<String, byte[]> QUEUE_KEYS = new LinkedHashMap<>();
  static final Map<String, byte[]> IDENTITY_KEYS = new LinkedHashMap<>();

  static {
    QUEUE_KEYS.put("q1", key(1, 32));
    QUEUE_KEYS.put("q2", key(2, 32));
    QUEUE_KEYS.put("q3", key(3, 48));
    QUEUE_KEYS.put("q4long", key(4, 100)); // longer than a SHA-256 block: hashed first
    IDENTITY_KEYS.put("i1", key(11, 32));
    IDENTITY_KEYS.put("i2", key(12, 32));
  }

  static String b64(byte[] k) {
    return Base64.getEncoder().encodeToString(k);
  }

  static QueueToken queueTokens(List<String> liveKeys, long nowMillis) {
    List<byte[]> accepted = liveKeys.subList(1, liveKeys.size()).stream().map(QUEUE_KEYS::get).toList();
    return new QueueTokenSettings(Clock.fixed(Instant.ofEpochMilli(nowMillis), ZoneOffset.UTC), QUEUE_KEYS.get(liveKeys.get(0)),
        accepted, TTL, WINDOW, SKEW).tokens();
  }

  final List<Map<String, Object>> queue = new ArrayList<>();
  final List<Map<String, Object>> identity = new ArrayList<>();
  final List<Map<String, Object>> prefixes = new ArrayList<>();

  /** A queue vector: the token {@code signer} issued for {@code claims}, checked by {@code verifier}'s live keys at {@code now}. */
  void queueVector(String name, List<String> liveKeys, String token, String eventId, String accountId, String prefix, long nowMillis) {
    QueueToken.Verification v = queueTokens(liveKeys, nowMillis).verify(token, eventId, accountId, prefix);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", name);
    m.put("liveKeys", liveKeys);
    m.put("token", token);
    m.put("eventId", eventId);
    m.put("accountId", accountId);
    m.put("prefix", prefix);
    m.put("nowMillis", nowMillis);
    if (v instanceof QueueToken.Valid valid) {
      m.put("verdict", "VALID");
      m.put("place", Long.toString(valid.claims().place()));
      m.put("issuedAt", valid.claims().issuedAt());
      m.put("admittedAt", valid.claims().admittedAt());
    } else {
      m.put("verdict", ((QueueToken.Invalid) v).reason().name());
    }
    queue.add(m);
  }

  static String issue(String signer, QueueToken.Claims claims) {
    return queueTokens(List.of(signer), T0.toEpochMilli()).issue(claims);
  }

  static String flip(String token, int charIndex) {
    char c = token.charAt(charIndex);
    char to = c == 'A' ? 'B' : 'A';
    return token.substring(0, charIndex) + to + token.substring(charIndex + 1);
  }

  void queueVectors() {
    long now = T0.toEpochMilli();
    long t0 = T0.getEpochSecond();
    String v4 = "203.0.113.0/24";
    String v6 = "2001:db8:1::/48";
    QueueToken.Claims waiting = new QueueToken.Claims("show1", "acc-1", 1234, v4, t0 - 60, 0);
    String token = issue("q1", waiting);
    List<String> k1 = List.of("q1");
    List<String> phase1 = List.of("q1", "q2");
    List<String> phase2 = List.of("q2", "q1");
    List<String> phase3 = List.of("q2");

    queueVector("valid", k1, token, "show1", "acc-1", v4, now);
    queueVector("valid, the signing key accepted beside another active key (rotation phase 2)", phase2, token, "show1", "acc-1", v4, now);
    queueVector("valid, signed by the next key that phase 1 accepts", phase1, issue("q2", waiting), "show1", "acc-1", v4, now);
    queueVector("old key dropped (rotation phase 3)", phase3, token, "show1", "acc-1", v4, now);
    queueVector("signed by an unknown key", k1, issue("q3", waiting), "show1", "acc-1", v4, now);
    queueVector("valid under a key longer than a block", List.of("q4long"), issue("q4long", waiting), "show1", "acc-1", v4, now);
    queueVector("forged: a MAC character changed", k1, flip(token, token.length() - 5), "show1", "acc-1", v4, now);
    queueVector("forged: the place changed", k1, flip(token, 10), "show1", "acc-1", v4, now);
    queueVector("forged: the key id changed", k1, flip(token, 3), "show1", "acc-1", v4, now);
    queueVector("moved to another /24", k1, token, "show1", "acc-1", "198.51.100.0/24", now);
    queueVector("another event", k1, token, "show2", "acc-1", v4, now);
    queueVector("another account", k1, token, "show1", "acc-2", v4, now);
    long lastSecond = (t0 - 60 + TTL.toSeconds() + SKEW.toSeconds()) * 1000;
    queueVector("valid through its lifetime plus the leeway", k1, token, "show1", "acc-1", v4, lastSecond + 999);
    queueVector("expired one second after its lifetime plus the leeway", k1, token, "show1", "acc-1", v4, lastSecond + 1000);
    QueueToken.Claims soon = new QueueToken.Claims("show1", "acc-1", 7, v4, t0 + SKEW.toSeconds(), 0);
    queueVector("issued within the leeway ahead of the clock", k1, issue("q1", soon), "show1", "acc-1", v4, now);
    QueueToken.Claims future = new QueueToken.Claims("show1", "acc-1", 7, v4, t0 + SKEW.toSeconds() + 1, 0);
    queueVector("issued in the future beyond the leeway", k1, issue("q1", future), "show1", "acc-1", v4, now);
    QueueToken.Claims admitted = new QueueToken.Claims("show1", "acc-1", 99, v6, t0 - 600, t0 - 30);
    queueVector("admitted, IPv6 /48", k1, issue("q1", admitted), "show1", "acc-1", v6, now);
    queueVector("IPv6 token from another /48", k1, issue("q1", admitted), "show1", "acc-1", "2001:db8:2::/48", now);
    QueueToken.Claims lobby = new QueueToken.Claims("show1", "acc-1", LOBBY_INDEX | 17, v4, t0 - 3600, 0);
    queueVector("a lobby join index", k1, issue("q1", lobby), "show1", "acc-1", v4, now);
    QueueToken.Claims big = new QueueToken.Claims("show1", "acc-1", Long.MAX_VALUE, v4, t0, 0);
    queueVector("the largest place", k1, issue("q1", big), "show1", "acc-1", v4, now);
    QueueToken.Claims unicode = new QueueToken.Claims("été-2026", "compte-ü", 5, v4, t0, 0);
    queueVector("texts beyond ASCII", k1, issue("q1", unicode), "été-2026", "compte-ü", v4, now);
    queueVector("texts beyond ASCII, another account", k1, issue("q1", unicode), "été-2026", "compte-u", v4, now);

    queueVector("empty", k1, "", "show1", "acc-1", v4, now);
    queueVector("garbage", k1, "not a token", "show1", "acc-1", v4, now);
    queueVector("truncated", k1, token.substring(0, token.length() - 4), "show1", "acc-1", v4, now);
    queueVector("one character more", k1, token + "A", "show1", "acc-1", v4, now);
    queueVector("padded", k1, token + "=", "show1", "acc-1", v4, now);
    queueVector("standard base64 alphabet", k1, token.replace('-', '+').replace('_', '/'), "show1", "acc-1", v4, now);
    // The last character carries unused bits: setting them makes a non-canonical spelling of the same bytes.
    String last = token.substring(token.length() - 1);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    int unused = switch (token.length() & 3) {
      case 2 -> 0xf;
      case 3 -> 0x3;
      default -> 0;
    };
    if (unused != 0) {
      char noisy = alphabet.charAt(alphabet.indexOf(last) ^ 1);
      queueVector("non-canonical last character", k1, token.substring(0, token.length() - 1) + noisy, "show1", "acc-1", v4, now);
    }
    byte[] raw = Base64.getUrlDecoder().decode(token);
    raw[0] = 2;
    queueVector("another version", k1, Base64.getUrlEncoder().withoutPadding().encodeToString(raw), "show1", "acc-1", v4, now);
    byte[] bent = Base64.getUrlDecoder().decode(token);
    bent[29] = (byte) 200; // the event id's length byte points past the end
    queueVector("a length past the end", k1, Base64.getUrlEncoder().withoutPadding().encodeToString(bent), "show1", "acc-1", v4, now);
  }

  void identityVector(String name, List<String> keys, String token, long nowMillis) {
    Hmac hmac = new Hmac(IDENTITY_KEYS.get(keys.get(0)));
    String account = new IdentityToken(hmac, Clock.fixed(Instant.ofEpochMilli(nowMillis), ZoneOffset.UTC), Duration.ofHours(12))
        .verify(token);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", name);
    m.put("keys", keys);
    m.put("token", token);
    m.put("nowMillis", nowMillis);
    m.put("account", account);
    identity.add(m);
  }

  void identityVectors() {
    long now = T0.toEpochMilli();
    Hmac i1 = new Hmac(IDENTITY_KEYS.get("i1"));
    Hmac i2 = new Hmac(IDENTITY_KEYS.get("i2"));
    IdentityToken issuer = new IdentityToken(i1, Clock.fixed(T0, ZoneOffset.UTC), Duration.ofHours(12));
    String token = issuer.issueSession("acc-1", "0.vectorSessionOne");
    List<String> k1 = List.of("i1");
    identityVector("valid", k1, token, now);
    identityVector("valid through its last second", k1, token, now + Duration.ofHours(12).toMillis() + 999);
    identityVector("expired", k1, token, now + Duration.ofHours(12).toMillis() + 1000);
    identityVector("another key", List.of("i2"), token, now);
    identityVector("signed by the other key", List.of("i2"), new IdentityToken(i2, Clock.fixed(T0, ZoneOffset.UTC),
        Duration.ofHours(12)).issueSession("acc-2", "3.vectorSessionTwo"), now);
    int dot = token.indexOf('.');
    identityVector("forged signature", k1, token.substring(0, dot + 1) + flip(token, dot + 3).substring(dot + 1), now);
    String otherPayload = Base64.getUrlEncoder().withoutPadding()
        .encodeToString(("id1|acc-2|" + (T0.getEpochSecond() + 3600)).getBytes(StandardCharsets.UTF_8));
    identityVector("another account's payload under this signature", k1, otherPayload + token.substring(dot), now);
    identityVector("padded signature", k1, token + "=", now);
    identityVector("padded twice", k1, token + "==", now);
    identityVector("no signature", k1, token.substring(0, dot), now);
    identityVector("two dots", k1, token + ".x", now);
    identityVector("empty", k1, "", now);
    identityVector("garbage", k1, "a.b", now);
    long later = T0.getEpochSecond() + 60;
    identityVector("sealed: no expiry", k1, i1.seal("id1|acc"), now);
    identityVector("sealed: not a number", k1, i1.seal("id1|acc|x"), now);
    identityVector("sealed: another prefix", k1, i1.seal("xx1|acc|" + later), now);
    identityVector("sealed: empty account", k1, i1.seal("id1||" + later), now);
    identityVector("sealed: beyond ASCII", k1, i1.seal("id1|compte-ü|" + later), now);
    identityVector("sealed: an expiry beyond 64 bits", k1, i1.seal("id1|acc|99999999999999999999"), now);
    identityVector("sealed: an id1 token of before sessions, still read", k1, i1.seal("id1|acc-3|" + later), now);
    identityVector("sealed: id2 without its session", k1, i1.seal("id2|acc-3|" + later), now);
    identityVector("sealed: id2 with an empty session", k1, i1.seal("id2|acc-3|" + later + "|"), now);
    identityVector("sealed: an unknown version", k1, i1.seal("id9|acc-3|" + later + "|0.x"), now);
  }

  void prefixVectors() throws Exception {
    ClientPrefix prefix = new ClientPrefix(List.of());
    for (String ip : new String[] {"203.0.113.77", "198.51.100.0", "10.1.2.3", "0.0.0.0", "255.255.255.255",
        "2001:db8:1:2:3:4:5:6", "2001:db8:1::1", "2001:DB8:ABCD:12::", "::1", "::", "fe80::1", "0:0:1::5",
        "2001:0db8:0000:0000:0000:0000:0000:0001", "::ffff:203.0.113.9", "::ffff:cb00:7109", "64:ff9b::203.0.113.9",
        "1.2.3", "1.2.3.4.5", "01.2.3.4", "256.1.1.1", "1:2:3:4:5:6:7:8:9", "1::2::3", "gggg::1", "", "example.com"}) {
      byte[] address = ClientPrefix.parseAddress(ip);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("ip", ip);
      m.put("prefix", address == null ? null : prefix.of(InetAddress.getByAddress(address), Optional.empty()));
      prefixes.add(m);
    }
  }

  final List<Map<String, Object>> lottery = new ArrayList<>();

  /**
   * The lottery's places (its Feistel permutation keyed by the drawn salt), which the edge works
   * out itself for a lobby fan's token once the public manifest shows the salt.
   */
  void lotteryVectors() {
    String[] salts = {"00", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"};
    long[] cohorts = {1, 2, 3, 5, 16, 17, 1_000, 77_815, 100_000, 4_294_967_311L};
    for (String salt : salts) {
      for (long cohort : cohorts) {
        java.util.TreeSet<Long> indices = new java.util.TreeSet<>(List.of(1L, cohort, (cohort + 1) / 2, Math.min(cohort, 7L),
            Math.max(1, cohort - 3)));
        for (long index : indices) {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("salt", salt);
          m.put("cohort", Long.toString(cohort));
          m.put("index", Long.toString(index));
          m.put("place", Long.toString(io.boxoffice.queue.domain.Lottery.place(index, salt, cohort)));
          lottery.add(m);
        }
      }
    }
  }

  String vectorsJson() throws Exception {
    queueVectors();
    identityVectors();
    prefixVectors();
    lotteryVectors();
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("about", "Written by server/src/test/java/io/boxoffice/edge/EdgeTokenVectorsTest.java from the real QueueToken, "
        + "IdentityToken, ClientPrefix and Lottery; checked by that test and by the worker's tests. Do not edit: run "
        + "mvn -pl server test -Dtest=EdgeTokenVectorsTest -Dvectors.write=true");
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("tokenTtlSeconds", TTL.toSeconds());
    settings.put("admissionWindowSeconds", WINDOW.toSeconds());
    settings.put("clockSkewSeconds", SKEW.toSeconds());
    root.put("settings", settings);
    Map<String, String> qk = new LinkedHashMap<>();
    QUEUE_KEYS.forEach((k, v) -> qk.put(k, b64(v)));
    root.put("queueKeys", qk);
    Map<String, String> ik = new LinkedHashMap<>();
    IDENTITY_KEYS.forEach((k, v) -> ik.put(k, b64(v)));
    root.put("identityKeys", ik);
    root.put("queue", queue);
    root.put("identity", identity);
    root.put("prefixes", prefixes);
    root.put("lottery", lottery);
    DefaultPrettyPrinter printer = new DefaultPrettyPrinter().withArrayIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE);
    return new ObjectMapper().writer(printer).writeValueAsString(root).replace("\r\n", "\n") + "\n";
  }

  @Test
  void theCommittedVectorsAreWhatTheJavaTokensSayToday() throws Exception {
    String expected = vectorsJson();
    if (Boolean.getBoolean("vectors.write")) {
      Files.createDirectories(FILE.getParent());
      Files.writeString(FILE, expected, StandardCharsets.UTF_8);
    }
    assertTrue(Files.exists(FILE), FILE + " is missing: run this test with -Dvectors.write=true");
    assertEquals(expected, Files.readString(FILE, StandardCharsets.UTF_8),
        FILE + " differs from the Java side's verdicts: rewrite it with -Dvectors.write=true and run the worker's tests");
  }

  @Test
  void theVectorsCoverEveryVerdict() throws Exception {
    vectorsJson();
    for (QueueToken.Reason r : QueueToken.Reason.values()) {
      assertTrue(queue.stream().anyMatch(v -> v.get("verdict").equals(r.name())), "a vector refused as " + r);
    }
    assertTrue(queue.stream().anyMatch(v -> v.get("verdict").equals("VALID")));
    assertTrue(identity.stream().anyMatch(v -> v.get("account") != null));
    assertTrue(identity.stream().anyMatch(v -> v.get("account") == null));
  }
}
