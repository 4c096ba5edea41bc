package io.boxoffice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.boxoffice.queue.domain.QueueToken;
import io.boxoffice.queue.domain.QueueTokenSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Queue-token verifications per second on one thread (one core): {@link QueueToken#verify} of a
 * realistic admitted token, and as its peer in the same run the seed's Go validator written
 * straightforwardly in Java ({@code split("|")}, hex decoding, {@code Mac.getInstance} and init
 * per call, string concatenation), on the seed's smaller {@code slot|prefix|hexmac} token.
 *
 * <p>With the path of JMH's JSON result as argument, {@link #main} prints both and the ratio.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class QueueTokenBench {
  static final String EVENT = "eras-2026-wembley-1";
  static final String ACCOUNT = "aQ3v9xK2mP0sT7wYbN4cLg"; // the shape of AccountRoutes' ids
  static final String PREFIX = "203.0.113.0/24";

  private final Clock clock = Clock.systemUTC();
  private QueueToken tokens;
  private String token;
  private byte[] seedSecret;
  private String seedToken;

  @Setup(Level.Trial)
  public void issue() {
    SplittableRandom random = new SplittableRandom(7);
    byte[] active = new byte[32];
    byte[] previous = new byte[32];
    random.nextBytes(active);
    random.nextBytes(previous);
    tokens = new QueueToken(new QueueTokenSettings(clock, active, previous, Duration.ofHours(24), Duration.ofMinutes(30),
        Duration.ofSeconds(15)));
    long now = clock.instant().getEpochSecond();
    token = tokens.issue(new QueueToken.Claims(EVENT, ACCOUNT, 48_213, PREFIX, now - 900, now - 60));
    if (!(boxoffice() instanceof QueueToken.Valid)) throw new IllegalStateException("the boxoffice token does not verify");

    seedSecret = new byte[32];
    random.nextBytes(seedSecret);
    seedToken = seedSign(now - 60, PREFIX, seedSecret);
    String error = seedStyle();
    if (error != null) throw new IllegalStateException("the seed-style token does not verify: " + error);
  }

  @Benchmark
  public QueueToken.Verification boxoffice() {
    return tokens.verify(token, EVENT, ACCOUNT, PREFIX);
  }

  @Benchmark
  public String seedStyle() {
    return seedVerify(seedToken, PREFIX, seedSecret, clock.millis() / 1000);
  }

  /** The seed's {@code verifyQueueToken}, line by line: null when valid, else the error. */
  static String seedVerify(String token, String clientPrefix, byte[] secret, long nowUnix) {
    String[] parts = token.split("\\|");
    if (parts.length != 3) return "malformed token";
    long slotEpoch;
    try {
      slotEpoch = Long.parseLong(parts[0]);
    } catch (NumberFormatException e) {
      return "invalid slot or network prefix mismatch";
    }
    if (!parts[1].equals(clientPrefix)) return "invalid slot or network prefix mismatch";
    byte[] sig;
    try {
      sig = HexFormat.of().parseHex(parts[2]);
    } catch (IllegalArgumentException e) {
      return "bad signature hex";
    }
    byte[] expected = seedMac(secret, parts[0] + "|" + parts[1]);
    if (!MessageDigest.isEqual(sig, expected)) return "hmac verification failed";
    if (nowUnix < slotEpoch - 15) return "wait in queue: slot " + slotEpoch + " not open";
    if (nowUnix > slotEpoch + 600) return "admission window expired";
    return null;
  }

  static String seedSign(long slotEpoch, String clientPrefix, byte[] secret) {
    String payload = slotEpoch + "|" + clientPrefix;
    return payload + "|" + HexFormat.of().formatHex(seedMac(secret, payload));
  }

  private static byte[] seedMac(byte[] secret, String payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return mac.doFinal(payload.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Prints both throughputs of a JMH JSON result of this benchmark, and their ratio. */
  public static void main(String[] args) throws Exception {
    JsonNode root = new ObjectMapper().readTree(Files.readString(Path.of(args[0])));
    double boxoffice = Double.NaN;
    double seed = Double.NaN;
    double boxofficeError = Double.NaN;
    double seedError = Double.NaN;
    for (JsonNode run : root) {
      JsonNode metric = run.get("primaryMetric");
      if (!"ops/s".equals(metric.get("scoreUnit").asText())) {
        throw new IllegalStateException("expected ops/s, found " + metric.get("scoreUnit"));
      }
      String name = run.get("benchmark").asText();
      if (name.endsWith(".boxoffice")) {
        boxoffice = metric.get("score").asDouble();
        boxofficeError = metric.get("scoreError").asDouble();
      } else if (name.endsWith(".seedStyle")) {
        seed = metric.get("score").asDouble();
        seedError = metric.get("scoreError").asDouble();
      }
    }
    System.out.println();
    System.out.println("==== Queue-token verifications, one thread ====");
    System.out.printf("boxoffice QueueToken.verify     %,12.0f ops/s  ± %,.0f (99.9%%)%n", boxoffice, boxofficeError);
    System.out.printf("seed-style (split, hex, Mac)    %,12.0f ops/s  ± %,.0f (99.9%%)%n", seed, seedError);
    System.out.printf("verifications/s per core: boxoffice %,.0f, seed-style %,.0f, ratio %.2fx%n",
        boxoffice, seed, boxoffice / seed);
    System.out.printf("target >= 1,000,000/s for boxoffice: %s%n", boxoffice >= 1_000_000 ? "met" : "NOT met");
  }
}
