package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.logging.Level;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's chromium, headless, driven by Debian's chromedriver through Selenium. Without them the
 * browser tests are skipped with a message, except under {@code CI=true}, where they fail (.ci/run
 * installs both). The browser runs as root here, so without its sandbox, with a new empty profile,
 * and with every network request sent to a closed local port: a page that tried to fetch anything
 * would log an error.
 */
final class Chromium {
  static final Path BROWSER = Path.of("/usr/bin/chromium");
  static final Path DRIVER = Path.of("/usr/bin/chromedriver");

  private Chromium() {}

  /** Skips (locally) or fails (CI) when the browser or its driver is missing. */
  static void require() {
    boolean present = Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
    if (!"true".equals(System.getenv("CI"))) {
      assumeTrue(
          present,
          "Debian's chromium and chromium-driver are not installed: apt-get install -y"
              + " chromium chromium-driver to run the browser tests");
    }
    assertThat(present)
        .as("chromium and chromedriver must be installed in CI (.ci/run installs them)")
        .isTrue();
  }

  /** A new headless browser with its own empty profile in {@code profile}. */
  static ChromeDriver start(Path profile) throws IOException {
    Files.createDirectories(profile);
    ChromeOptions o = new ChromeOptions();
    o.setBinary(BROWSER.toFile());
    o.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--user-data-dir=" + profile.toAbsolutePath(),
        "--window-size=1200,900",
        "--proxy-server=127.0.0.1:9",
        "--proxy-bypass-list=<-loopback>");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    o.setCapability("goog:loggingPrefs", logs);
    o.setExperimentalOption("excludeSwitches", java.util.List.of("enable-automation"));
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(DRIVER.toString()))
            .usingAnyFreePort()
            .withEnvironment(Map.of())
            .build();
    return new ChromeDriver(service, o);
  }
}
