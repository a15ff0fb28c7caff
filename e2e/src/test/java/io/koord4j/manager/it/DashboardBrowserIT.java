package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.koord4j.manager.dashboard.Dashboard;
import io.koord4j.manager.dashboard.DashboardSettings;
import io.koord4j.probes.ProbeServer;
import io.koord4j.testing.LocalCluster;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The dashboard in headless Chromium, driven by Selenium through Debian's chromedriver, while
 * the blocked-jobs scenario waits: the quota tree, a waiting job's reason and the GPU map as a
 * person sees them. A screenshot goes to {@code e2e/target/dashboard.png}.
 */
class DashboardBrowserIT extends InProcessManagerBase {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Path SCREENSHOT = LocalCluster.repoRoot().resolve("e2e/target/dashboard.png");

  private static BlockedJobs scenario;
  private static ProbeServer server;
  private static ChromeDriver browser;

  @BeforeAll
  static void openTheDashboard() throws IOException, InterruptedException {
    assertThat(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER))
        .as("headless Chromium and its driver are needed: apt-get install chromium chromium-driver"
            + " (.ci/run installs them)")
        .isTrue();
    scenario = BlockedJobs.create(client);
    server = ProbeServer.start(ProbeServer.Listen.onPort(0), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), () -> true);
    Dashboard.serveOn(server, DashboardSettings.from(Map.of()), client, Optional.empty());
    ChromeOptions options = new ChromeOptions()
        .setBinary(CHROMIUM.toFile())
        .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,2000");
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
    browser = new ChromeDriver(service, options);
    // The largest page: this cluster holds other tests' quotas, queues and nodes beside the scenario's.
    browser.get("http://127.0.0.1:" + server.port() + Dashboard.PATH + "?limit=200");
  }

  @AfterAll
  static void close() throws IOException {
    if (browser != null) {
      saveScreenshot();
      browser.quit();
    }
    if (server != null) {
      server.close();
    }
    if (scenario != null) {
      scenario.close();
    }
  }

  @Test
  void theQuotaTreeShowsTheLeafUnderItsParentWithItsFigures() {
    String leaf = scenario.quotaLeaf();
    List<WebElement> rows = await().atMost(WAIT).until(
        () -> browser.findElements(By.cssSelector("#quota-tree tr[data-quota='" + leaf + "']")),
        found -> !found.isEmpty());

    assertThat(rows.get(0).getText()).contains("└─ " + leaf).contains("cpu");
    List<String> quotas = browser.findElements(By.cssSelector("#quota-tree tr[data-quota]")).stream()
        .map(row -> row.getAttribute("data-quota")).toList();
    assertThat(quotas.indexOf(scenario.cluster().prefix + "-research")).isLessThan(quotas.indexOf(leaf));
    String busy = browser.findElement(By.cssSelector("#quota-tree tr[data-quota='" + scenario.busyLeaf() + "']"))
        .getText();
    assertThat(busy).contains("100%");
  }

  @Test
  void aWaitingJobShowsItsPlaceAndTheConstraintThatHoldsItBack() {
    String ns = scenario.cluster().namespace;
    WebElement low = await().atMost(WAIT).until(
        () -> browser.findElements(By.cssSelector("[data-queue='" + scenario.busyLeaf() + "'] [data-job='" + ns + "/low']")),
        found -> !found.isEmpty()).get(0);

    assertThat(low.findElement(By.className("job-head")).getText()).startsWith("#3 Job " + ns + "/low");
    assertThat(low.findElements(By.className("reason"))).extracting(WebElement::getText)
        .contains("quota \"" + scenario.busyLeaf() + "\" has 0 of cpu available, 1 requested",
            "position 3 of 3 in queue " + scenario.busyLeaf() + ", behind 2 higher-priority units");
    WebElement trainer = browser.findElement(By.cssSelector("[data-job='" + ns + "/trainer']"));
    assertThat(trainer.getText())
        .contains("gang of 2 × 8 GPUs (pod set main): only 1 node has 8 free GPUs in one NVLink partition");
  }

  @Test
  void theGpuMapShowsWhoHoldsWhichGpu() {
    String node = scenario.halfTakenNode();
    WebElement row = await().atMost(WAIT).until(
        () -> browser.findElements(By.cssSelector("#gpu-map [data-node='" + node + "']")),
        found -> !found.isEmpty()).get(0);

    assertThat(row.getText()).contains("(4/8 free)").contains("free NVLink partitions: [4,5,6,7] [4,5] [6,7]");
    List<WebElement> gpus = row.findElements(By.className("gpu"));
    assertThat(gpus).hasSize(8);
    assertThat(gpus.get(0).getAttribute("data-holder")).isEqualTo(scenario.cluster().namespace + "/gpu-holder");
    assertThat(gpus.get(7).getAttribute("class")).contains("free");
  }

  @Test
  void recentAdmissionsIncludeTheJobThatHoldsTheBusyQuota() {
    String holder = scenario.cluster().namespace + "/holder";
    await().atMost(WAIT).until(
        () -> browser.findElements(By.cssSelector("#recent tr.admitted")).stream()
            .anyMatch(row -> row.getText().contains(holder) && row.getText().contains(scenario.busyLeaf())));
  }

  private static void saveScreenshot() throws IOException {
    File shot = browser.getScreenshotAs(OutputType.FILE);
    Files.createDirectories(SCREENSHOT.getParent());
    Files.copy(shot.toPath(), SCREENSHOT, StandardCopyOption.REPLACE_EXISTING);
  }
}
