package io.boxoffice.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's headless Chromium driven through its own chromedriver, for the browser tests.
 *
 * <p>Both binaries come from the {@code chromium} and {@code chromium-driver} packages
 * ({@code .ci/run} installs them when missing); paths are set explicitly so that Selenium
 * Manager never tries to download a browser (this machine has no internet). The flags keep
 * Chromium from dialling Google's services, which the closed network refuses.
 *
 * <p>Register as a JUnit extension ({@code @RegisterExtension static Chromium browser = ...})
 * to get a screenshot of every open window under {@code server/target/screenshots/} when a test fails
 * (taken before any {@code @AfterEach} runs, so windows may be closed there).
 */
public final class Chromium implements AfterTestExecutionCallback, AutoCloseable {
  public static final Path BINARY = Paths.get(System.getProperty("boxoffice.test.chromium", "/usr/bin/chromium"));
  public static final Path DRIVER = Paths.get(System.getProperty("boxoffice.test.chromedriver", "/usr/bin/chromedriver"));
  public static final Path SCREENSHOTS = Paths.get("server/target/screenshots");

  private final List<ChromeDriver> drivers = new ArrayList<>();

  /** A new browser window with its own profile (own cookies), {@code width} x {@code height} CSS pixels. */
  public ChromeDriver open(int width, int height) {
    return open(width, height, false);
  }

  /**
   * {@link #open(int, int)}, and with {@code networkLog} the browser's performance log on: every
   * request it sends is in {@code driver.manage().logs().get(LogType.PERFORMANCE)} as DevTools
   * {@code Network.*} events (see {@link NetworkLog}).
   */
  public synchronized ChromeDriver open(int width, int height, boolean networkLog) {
    ChromeOptions options = new ChromeOptions();
    if (networkLog) {
      LoggingPreferences logs = new LoggingPreferences();
      logs.enable(LogType.PERFORMANCE, Level.ALL);
      options.setCapability("goog:loggingPrefs", logs);
    }
    options.setBinary(BINARY.toFile());
    options.addArguments(
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-default-apps", "--disable-extensions", "--hide-scrollbars", "--force-device-scale-factor=1",
        "--window-size=" + width + "," + height);
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().window().setSize(new Dimension(width, height));
    drivers.add(driver);
    return driver;
  }

  /** A desktop-sized window. */
  public ChromeDriver desktop() {
    return open(1280, 900);
  }

  /** A phone-sized window: 390 CSS pixels wide. */
  public ChromeDriver phone() {
    return open(390, 844);
  }

  /** Saves a PNG of what {@code driver} shows now, as {@code target/screenshots/<name>.png}; returns its path. */
  public static Path screenshot(ChromeDriver driver, String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      Path file = SCREENSHOTS.resolve(name.replaceAll("[^A-Za-z0-9._-]", "_") + ".png");
      Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
      return file;
    } catch (IOException e) {
      throw new IllegalStateException("could not save screenshot " + name, e);
    }
  }

  @Override
  public void afterTestExecution(ExtensionContext context) {
    Optional<Throwable> failure = context.getExecutionException();
    if (failure.isEmpty()) {
      return;
    }
    List<ChromeDriver> open;
    synchronized (this) {
      open = List.copyOf(drivers);
    }
    String name = context.getRequiredTestClass().getSimpleName() + "-" + context.getDisplayName() + "-failed";
    for (int i = 0; i < open.size(); i++) {
      try {
        screenshot(open.get(i), name + "-" + i);
      } catch (RuntimeException e) {
        failure.get().addSuppressed(e);
      }
    }
  }

  /** Quits every window opened so far. */
  @Override
  public synchronized void close() {
    for (ChromeDriver driver : drivers) {
      try {
        driver.quit();
      } catch (RuntimeException ignored) {
        // a crashed browser is already gone
      }
    }
    drivers.clear();
  }
}
