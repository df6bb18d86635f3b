package dev.baton.bootstrap.admin;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.baton.adapters.redis.RedisAdapter;
import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real browser (Debian's headless Chromium, driven by Selenium) over a worker on real Redis and
 * PostgreSQL: the overview's numbers and chart move as jobs run, a job is looked up, a dead letter is replayed and
 * completes and the audit trail lists the replay, a viewer's replay is refused, the pages log no console error and
 * signing out asks for a login again.
 * Takes the screenshots docs/DASHBOARD.md shows.
 */
class DashboardBrowserIT {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String VIEWER_PASSWORD = "look-don't-touch";
    private static final String OPERATOR_PASSWORD = "s3cret-operator";

    private final QueueName queue = QueueName.of(TestEndpoints.unique("dash").replace('_', '-'));
    private final AtomicBoolean paymentsWork = new AtomicBoolean();
    private Baton baton;
    private String base;
    private ChromeDriver browser;
    private Path profile;
    private final List<String> network = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            fail("the dashboard's browser test needs Debian's headless Chromium: " + CHROMIUM + " and " + CHROMEDRIVER
                    + " (apt-get install chromium chromium-driver; .ci/run installs them)");
        }
        JobHandler handler = context -> {
            String id = context.job().id().value();
            if (id.equals("payment-big")) {
                throw new NonRetryableException("card issuer declined: " + "r".repeat(1_900));
            }
            if (id.startsWith("payment") && !paymentsWork.get()) {
                throw new NonRetryableException("card issuer declined: insufficient funds");
            }
            if (id.startsWith("flaky") && context.attempt() == 1) {
                throw new IllegalStateException("the warehouse answered 503");
            }
            return Optional.of("done " + id);
        };
        baton = Baton.builder().config(ConfigLoader.load(Map.of("BATON_SCHEMA", TestEndpoints.unique("dash"),
                        "BATON_ADMIN_ADDRESS", "127.0.0.1:0", "BATON_QUEUES", queue.value(),
                        "BATON_BACKOFF_INITIAL", "300ms", "BATON_BACKOFF_MAX", "1s",
                        "BATON_ADMIN_VIEWER_PASSWORD", VIEWER_PASSWORD,
                        "BATON_ADMIN_OPERATOR_PASSWORD", OPERATOR_PASSWORD), Optional.empty(),
                        Map.of()))
                .set(REDIS_URI, TestEndpoints.redisUri()).set(JDBC_URL, TestEndpoints.jdbcUrl())
                .handler(queue.value(), handler).build();
        base = "http://127.0.0.1:" + baton.startAdmin().orElseThrow().getPort();
        profile = Files.createTempDirectory("baton-chromium");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toString()).addArguments("--headless=new",
                "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--user-data-dir=" + profile);
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL", "performance", "ALL"));
        browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .build(), options);
        browser.manage().window().setSize(new Dimension(1360, 900));
        browser.executeCdpCommand("Network.enable", Map.of());
    }

    @AfterEach
    void stop() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        if (baton != null) {
            baton.use(RedisAdapter.class).deleteQueue(queue);
            baton.close();
        }
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void anOperatorWatchesJobsRunLooksOneUpAndReplaysADeadLetter() throws IOException {
        RunningWorker worker = baton.start(queue.value());
        signIn("operator", OPERATOR_PASSWORD);
        browser.get(base + "/");
        WebElement row = waitFor(By.cssSelector("tr[data-queue='" + queue.value() + "']"));
        assertThat(row.findElement(By.cssSelector("[data-field=dead]")).getText()).isEqualTo("0");

        // jobs due over the next seconds, so that the chart shows a rate for a while
        baton.enqueueAll(IntStream.range(0, 60).mapToObj(i -> new EnqueueJobUseCase.Command(queue,
                JobId.of((i % 6 == 5 ? "flaky-" : "order-") + i), Optional.empty(), "{\"order\": " + i + "}",
                Map.of(), Optional.empty(), Optional.of(Duration.ofMillis(100L * i)))).toList());
        List.of("payment-17", "payment-18", "payment-19").forEach(id ->
                baton.enqueue(queue, JobId.of(id), "{\"amount_cents\": 1999, \"card\": \"visa\"}"));
        until(() -> cell(queue, "dead").equals("3"));
        until(() -> cell(queue, "completed").equals("60"));
        assertThat(worker.counters().completed()).isEqualTo(60);
        until(() -> browser.findElement(By.id("chart-status")).getText().matches("live · \\d\\d+ s"));
        screenshot("dashboard-overview.png");

        browser.get(base + "/dashboard/job.html?queue=" + queue.value() + "&job_id=flaky-5");
        until(() -> text("[data-field=state]").equals("completed"));
        assertThat(text("[data-field=attempts]")).isEqualTo("2");
        assertThat(text("[data-field=result]")).isEqualTo("done flaky-5");
        assertThat(browser.findElements(By.cssSelector("#actions button"))).as("nothing to do to a completed job")
                .isEmpty();

        baton.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("later-1"), "{}").after(Duration.ofHours(1)));
        browser.get(base + "/dashboard/job.html?queue=" + queue.value() + "&job_id=later-1");
        until(() -> text("[data-field=state]").equals("delayed"));
        waitFor(By.id("action-run-now")).click();
        waitFor(By.id("confirm-ok")).click();
        until(() -> text("#message").equals("Job later-1 is due now"));
        browser.navigate().refresh();
        until(() -> text("[data-field=state]").equals("completed"));

        browser.get(base + "/dashboard/dead.html?queue=" + queue.value());
        WebElement letter = waitFor(By.cssSelector("tr[data-job='payment-17']"));
        assertThat(letter.getText()).contains("NON_RETRYABLE", "card issuer declined", "amount_cents");
        screenshot("dashboard-dead-letters.png");
        paymentsWork.set(true);
        letter.findElement(By.cssSelector("button.replay")).click();
        waitFor(By.id("confirm-ok")).click();
        until(() -> text("#message").equals("Replayed 1 dead letter"));
        assertThat(browser.findElements(By.cssSelector("tr[data-job='payment-17']"))).isEmpty();

        browser.get(base + "/dashboard/job.html?queue=" + queue.value() + "&job_id=payment-17");
        until(() -> text("[data-field=state]").equals("completed"));
        assertThat(text("[data-field=attempts]")).isEqualTo("1");
        browser.get(base + "/dashboard/audit.html");
        WebElement replayed = waitFor(By.cssSelector("#audit tr[data-action='queues/dead/replay']"));
        assertThat(replayed.findElements(By.tagName("td"))).extracting(WebElement::getText)
                .contains("operator", "127.0.0.1", queue.value(), "1", "200");
        assertThat(replayed.getText()).contains("POST /api/queues/" + queue.value() + "/dead/replay", "\"ids\"");
        screenshot("dashboard-audit.png");
    }

    @Test
    void aViewerSeesNoChangeButtonsAndTheServerRefusesTheReplayAnyway() {
        baton.start(queue.value());
        baton.enqueue(queue, JobId.of("payment-1"), "<img src=x onerror=\"document.title='owned'\">");
        signIn("viewer", VIEWER_PASSWORD);
        browser.get(base + "/dashboard/dead.html?queue=" + queue.value());
        WebElement letter = waitFor(By.cssSelector("tr[data-job='payment-1']"));
        assertThat(text("#user")).isEqualTo("signed in as viewer · read-only");
        assertThat(letter.getText()).as("a payload is shown as text, never markup")
                .contains("<img src=x onerror=\"document.title='owned'\">");
        assertThat(browser.getTitle()).isEqualTo("Baton · Dead letters");
        assertThat(browser.manage().logs().get(LogType.BROWSER).getAll()).as("no console error, no missing favicon")
                .noneMatch(entry -> entry.getLevel() == Level.SEVERE);
        WebElement replay = letter.findElement(By.cssSelector("button.replay"));
        assertThat(replay.isDisplayed()).isFalse();

        // a page tampered with to show the button: the server still says no
        browser.executeScript("arguments[0].hidden = false; arguments[0].disabled = false;", replay);
        replay.click();
        waitFor(By.id("confirm-ok")).click();
        until(() -> text("#message").startsWith("403: "));
        browser.navigate().refresh();
        assertThat(waitFor(By.cssSelector("tr[data-job='payment-1']")).isDisplayed()).isTrue();

        // signed out, the next page is refused with a login challenge (a real browser then asks for the password)
        browser.findElement(By.id("signout")).click();
        until(() -> answered(base + "/", 401));
    }

    /** Whether the browser got an answer of {@code status} to {@code url}, as its network log tells. */
    private boolean answered(String url, int status) {
        browser.manage().logs().get(LogType.PERFORMANCE).forEach(entry -> network.add(entry.getMessage()));
        return network.stream().anyMatch(event -> event.contains("\"Network.responseReceived\"")
                && event.contains("\"url\":\"" + url + "\"") && event.contains("\"status\":" + status));
    }

    /**
     * A dead letter with a large payload and a long error: the list shows them cut with the Replay button in view,
     * "Show all" fetches the whole; a page asked for an unknown queue says so instead of showing another queue.
     */
    @Test
    void aLargeDeadLetterIsCutAndAnUnknownQueueNamedAsSuch() {
        String payload = "{\"scan\": \"" + "s".repeat(50_000) + "\"}";
        RunningWorker worker = baton.start(queue.value());
        baton.enqueue(queue, JobId.of("payment-big"), payload);
        until(() -> worker.counters().deadLettered() == 1);
        signIn("operator", OPERATOR_PASSWORD);

        browser.get(base + "/dashboard/dead.html?queue=payments-" + queue.value());
        until(() -> text("#message").startsWith("Unknown queue 'payments-" + queue.value() + "'"));
        assertThat(browser.findElements(By.cssSelector("#dead tbody tr"))).isEmpty();

        browser.get(base + "/dashboard/dead.html?queue=" + queue.value());
        WebElement letter = waitFor(By.cssSelector("tr[data-job='payment-big']"));
        assertThat(letter.getText()).contains("cut: " + String.format(Locale.US, "%,d", payload.length())
                + " bytes in all");
        assertThat(payloadLength(letter)).isEqualTo(2_000);
        WebElement replay = letter.findElement(By.cssSelector("button.replay"));
        assertThat(replay.getRect().getX() + replay.getRect().getWidth()).as("the Replay button is in view")
                .isLessThanOrEqualTo(1360);
        letter.findElement(By.cssSelector("button.whole")).click();
        until(() -> payloadLength(letter) == payload.length());
        assertThat(letter.findElements(By.cssSelector(".cut"))).isEmpty();
    }

    private long payloadLength(WebElement letter) {
        return (Long) browser.executeScript("return arguments[0].querySelector('pre.payload').textContent.length;",
                letter);
    }

    /** Sends the user's credentials with every request of the browser (what its login dialog would do). */
    private void signIn(String user, String password) {
        String token = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        browser.executeCdpCommand("Network.setExtraHTTPHeaders",
                Map.of("headers", Map.of("Authorization", "Basic " + token)));
    }

    private String cell(QueueName name, String field) {
        return browser.findElement(By.cssSelector("tr[data-queue='" + name.value() + "'] [data-field=" + field + "]"))
                .getText();
    }

    private String text(String css) {
        List<WebElement> found = browser.findElements(By.cssSelector(css));
        return found.isEmpty() ? "" : found.get(0).getText();
    }

    private WebElement waitFor(By locator) {
        return new WebDriverWait(browser, WAIT).until(ExpectedConditions.visibilityOfElementLocated(locator));
    }

    private void until(BooleanSupplier condition) {
        new WebDriverWait(browser, WAIT).ignoring(RuntimeException.class).until(driver -> condition.getAsBoolean());
    }

    /**
     * Into target/dashboard-screenshots, or into the directory {@code -Dbaton.screenshots=...} names: docs/images
     * when the pictures of docs/DASHBOARD.md are to be made again, so that a plain run leaves the docs alone.
     */
    private void screenshot(String name) throws IOException {
        String asked = System.getProperty("baton.screenshots");
        Path images = asked != null ? Path.of(asked)
                : Path.of(System.getProperty("user.dir")).resolve("target").resolve("dashboard-screenshots");
        Files.createDirectories(images);
        Files.write(images.resolve(name), browser.getScreenshotAs(OutputType.BYTES));
    }
}
