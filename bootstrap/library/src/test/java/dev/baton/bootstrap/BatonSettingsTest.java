package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.ADMIN_ADDRESS;
import static dev.baton.bootstrap.config.Setting.BACKOFF_INITIAL;
import static dev.baton.bootstrap.config.Setting.BACKOFF_MAX;
import static dev.baton.bootstrap.config.Setting.BATCH_COMMIT;
import static dev.baton.bootstrap.config.Setting.CONCURRENCY;
import static dev.baton.bootstrap.config.Setting.DELIVERY_LIMIT;
import static dev.baton.bootstrap.config.Setting.GRACE;
import static dev.baton.bootstrap.config.Setting.IDLE_THRESHOLD;
import static dev.baton.bootstrap.config.Setting.JOB_THREADS;
import static dev.baton.bootstrap.config.Setting.JOB_TIMEOUT;
import static dev.baton.bootstrap.config.Setting.LEASE;
import static dev.baton.bootstrap.config.Setting.MAX_ATTEMPTS;
import static dev.baton.bootstrap.config.Setting.MIGRATIONS;
import static dev.baton.bootstrap.config.Setting.MODE;
import static dev.baton.bootstrap.config.Setting.POOL_SIZE;
import static dev.baton.bootstrap.config.Setting.QUEUES;
import static dev.baton.bootstrap.config.Setting.REDIS_CLUSTER_NODES;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.RETENTION;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.application.service.JobThreads;
import dev.baton.application.service.worker.WorkerSettings;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.config.Mode;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import dev.baton.domain.Backoff;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class BatonSettingsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String QUEUE = "emails";

    private final InMemoryAdapters adapters = new InMemoryAdapters(Clock.systemUTC());

    @Test
    void everySettingGivenOnTheBuilderReachesTheWorkersSettings() {
        try (Baton baton = builder().set(LEASE, Duration.ofSeconds(7)).set(JOB_TIMEOUT, Duration.ofSeconds(42))
                .set(MAX_ATTEMPTS, 3).set(BACKOFF_INITIAL, Duration.ofMillis(250))
                .set(BACKOFF_MAX, Duration.ofSeconds(4)).set(DELIVERY_LIMIT, 9)
                .set(RETENTION, Duration.ofHours(6)).set(IDLE_THRESHOLD, Duration.ofMinutes(20))
                .set(GRACE, Duration.ofSeconds(3))
                .set(BATCH_COMMIT, 4).set(JOB_THREADS, JobThreads.PLATFORM).build()) {
            WorkerSettings settings = baton.use(WorkerSettings.class);

            assertThat(settings.leasing().lease()).isEqualTo(Duration.ofSeconds(7));
            assertThat(settings.retries().jobTimeout()).isEqualTo(Duration.ofSeconds(42));
            assertThat(settings.retries().retryPolicy().maxAttempts()).isEqualTo(3);
            assertThat(settings.retries().retryPolicy().backoff())
                    .isEqualTo(new Backoff.Exponential(Duration.ofMillis(250), 2.0, Duration.ofSeconds(4)));
            assertThat(settings.admission().deliveryLimit().maxDeliveries()).isEqualTo(9);
            assertThat(settings.housekeeping().retention().maxAge()).isEqualTo(Duration.ofHours(6));
            assertThat(settings.housekeeping().consumerIdleRemoval()).isEqualTo(Duration.ofMinutes(20));
            assertThat(settings.stopping().grace()).isEqualTo(Duration.ofSeconds(3));
            assertThat(settings.dispatching().batchCommit()).isEqualTo(4);
            assertThat(settings.dispatching().jobThreads()).isEqualTo(JobThreads.PLATFORM);
        }
    }

    @Test
    void theConnectionSettingsGivenOnTheBuilderReachTheConfiguration() {
        try (Baton baton = builder().set(REDIS_URI, "redis://cache:6380")
                .set(REDIS_CLUSTER_NODES, List.of("cache-1:7000", "cache-2:7000"))
                .set(SCHEMA, "shop").set(MODE, Mode.AT_LEAST_ONCE)
                .set(QUEUES, List.of("emails", "reports")).set(ADMIN_ADDRESS, "off").set(POOL_SIZE, Optional.of(3))
                .set(MIGRATIONS, List.of("classpath:db/shop"))
                .build()) {
            BatonConfig config = baton.config();

            assertThat(config.get(REDIS_URI)).isEqualTo("redis://cache:6380");
            assertThat(config.get(REDIS_CLUSTER_NODES)).containsExactly("cache-1:7000", "cache-2:7000");
            assertThat(config.get(SCHEMA)).isEqualTo("shop");
            assertThat(config.get(MODE)).isEqualTo(Mode.AT_LEAST_ONCE);
            assertThat(config.queues()).containsExactly(QueueName.of("emails"), QueueName.of("reports"));
            assertThat(config.adminAddress()).isEmpty();
            assertThat(config.poolSize()).isEqualTo(3);
            assertThat(config.get(MIGRATIONS)).containsExactly("classpath:db/shop");
        }
    }

    @Test
    void builderBeatsEnvironmentAnyOrderAndPoolFollowsConcurrency() {
        BatonConfig environment = ConfigLoader.load(Map.of("BATON_CONCURRENCY", "4", "BATON_LEASE", "9s"),
                Optional.empty(), Map.of());

        try (Baton baton = builder().set(CONCURRENCY, 20).config(environment).build()) {
            assertThat(baton.config().get(CONCURRENCY)).isEqualTo(20);
            assertThat(baton.config().poolSize()).as("auto = concurrency + 2").isEqualTo(22);
            assertThat(baton.config().get(LEASE)).as("from the environment").isEqualTo(Duration.ofSeconds(9));
        }
    }

    @Test
    void anUnsetPoolFollowsTheBatchedTransactionsAtOnce() {
        BatonConfig environment = ConfigLoader.load(Map.of("BATON_CONCURRENCY", "64", "BATON_BATCH_COMMIT", "16"),
                Optional.empty(), Map.of());
        assertThat(environment.poolSize()).as("four batches at once, lookups, relay").isEqualTo(6);

        try (Baton baton = builder().set(CONCURRENCY, 256).config(environment).build()) {
            assertThat(baton.config().poolSize()).as("sixteen full batches of 16, plus two").isEqualTo(18);
        }
    }

    @Test
    void theConcurrencyGivenOnTheBuilderLimitsTheJobsRunningAtOnce() {
        AtomicInteger started = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        try (Baton baton = builder().set(CONCURRENCY, 2).set(GRACE, Duration.ofSeconds(5)).handler(QUEUE, context -> {
            started.incrementAndGet();
            release.await();
            return Optional.empty();
        }).build()) {
            for (int i = 0; i < 5; i++) {
                baton.enqueue(QueueName.of(QUEUE), JobId.of("job-" + i), "{}");
            }
            baton.start(QUEUE);

            await().atMost(WAIT).until(() -> started.get() >= 2);
            await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> started.get() == 2);
            release.countDown();
            await().atMost(WAIT).until(() -> started.get() == 5);
        }
    }

    @Test
    void aBadValueFailsByTheEnvironmentsRuleNamingTheCall() {
        assertRefused(b -> b.set(CONCURRENCY, 0), "Baton.builder().set(CONCURRENCY, 0): must be in 1..10000");
        assertRefused(b -> b.set(MAX_ATTEMPTS, 1001), "Baton.builder().set(MAX_ATTEMPTS, 1001): must be in 1..1000");
        assertRefused(b -> b.set(DELIVERY_LIMIT, 0), "Baton.builder().set(DELIVERY_LIMIT, 0): must be in 1..1000");
        assertRefused(b -> b.set(POOL_SIZE, Optional.of(0)), "Baton.builder().set(POOL_SIZE, 0): must be in 1..1000");
        assertRefused(b -> b.set(BATCH_COMMIT, 1001), "Baton.builder().set(BATCH_COMMIT, 1001): must be in 1..1000");
        assertRefused(b -> b.set(LEASE, Duration.ZERO), "Baton.builder().set(LEASE, 0s): must be positive");
        assertRefused(b -> b.set(JOB_TIMEOUT, Duration.ofSeconds(-1)),
                "Baton.builder().set(JOB_TIMEOUT, -1s): must be positive");
        assertRefused(b -> b.set(RETENTION, Duration.ZERO), "Baton.builder().set(RETENTION, 0s): must be positive");
        assertRefused(b -> b.set(BACKOFF_INITIAL, Duration.ofMinutes(10))
                        .set(BACKOFF_MAX, Duration.ofMinutes(1)),
                "Baton.builder().set(BACKOFF_MAX, 1m): must not be below BACKOFF_INITIAL (10m)");
        assertRefused(b -> b.set(BACKOFF_INITIAL, Duration.ofMinutes(10)),
                "Baton.builder().set(BACKOFF_INITIAL, 10m): must not be above BACKOFF_MAX (5m)");
        assertRefused(b -> b.set(SCHEMA, "Shop"),
                "Baton.builder().set(SCHEMA, 'Shop'): expected a lower-case SQL identifier");
        assertRefused(b -> b.set(REDIS_URI, "http://cache"),
                "Baton.builder().set(REDIS_URI, 'http://cache'): expected redis://");
        assertRefused(b -> b.set(MIGRATIONS, List.of("db/shop")),
                "Baton.builder().set(MIGRATIONS, [db/shop]): expected migration locations");
        assertRefused(b -> b.set(REDIS_CLUSTER_NODES, List.of("cache-1")),
                "Baton.builder().set(REDIS_CLUSTER_NODES, [cache-1]): expected comma-separated host:port");
        assertRefused(b -> b.set(ADMIN_ADDRESS, "nowhere"),
                "Baton.builder().set(ADMIN_ADDRESS, 'nowhere'): expected host:port");
    }

    @Test
    void theEnvironmentStillNamesItsVariable() {
        assertThatThrownBy(() -> ConfigLoader.load(Map.of("BATON_CONCURRENCY", "0"), Optional.empty(), Map.of()))
                .hasMessage("invalid BATON_CONCURRENCY (--concurrency) = '0' from the environment: "
                        + "must be in 1..10000");
    }

    private void assertRefused(UnaryOperator<BatonBuilder> setting, String message) {
        assertThatThrownBy(() -> setting.apply(builder()).build()).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(message);
    }

    private BatonBuilder builder() {
        return Baton.builder().adapters(adapters.ports());
    }
}
