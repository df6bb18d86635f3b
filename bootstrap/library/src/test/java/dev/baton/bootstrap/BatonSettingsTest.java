package dev.baton.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.application.service.JobThreads;
import dev.baton.application.service.worker.WorkerSettings;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.config.Mode;
import dev.baton.bootstrap.config.Setting;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import dev.baton.domain.Backoff;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Duration;
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
        try (Baton baton = builder().lease(Duration.ofSeconds(7)).jobTimeout(Duration.ofSeconds(42))
                .maxAttempts(3).backoff(Duration.ofMillis(250), Duration.ofSeconds(4)).deliveryLimit(9)
                .retention(Duration.ofHours(6)).idleThreshold(Duration.ofMinutes(20)).grace(Duration.ofSeconds(3))
                .batchCommit(4).jobThreads(JobThreads.PLATFORM).build()) {
            WorkerSettings settings = baton.use(WorkerSettings.class);

            assertThat(settings.lease()).isEqualTo(Duration.ofSeconds(7));
            assertThat(settings.jobTimeout()).isEqualTo(Duration.ofSeconds(42));
            assertThat(settings.retryPolicy().maxAttempts()).isEqualTo(3);
            assertThat(settings.retryPolicy().backoff())
                    .isEqualTo(new Backoff.Exponential(Duration.ofMillis(250), 2.0, Duration.ofSeconds(4)));
            assertThat(settings.deliveryLimit().maxDeliveries()).isEqualTo(9);
            assertThat(settings.retention().maxAge()).isEqualTo(Duration.ofHours(6));
            assertThat(settings.consumerIdleRemoval()).isEqualTo(Duration.ofMinutes(20));
            assertThat(settings.grace()).isEqualTo(Duration.ofSeconds(3));
            assertThat(settings.batchCommit()).isEqualTo(4);
            assertThat(settings.jobThreads()).isEqualTo(JobThreads.PLATFORM);
        }
    }

    @Test
    void theConnectionSettingsGivenOnTheBuilderReachTheConfiguration() {
        try (Baton baton = builder().redis("redis://cache:6380").redisClusterNodes("cache-1:7000", "cache-2:7000")
                .schema("shop").mode(Mode.AT_LEAST_ONCE)
                .queues("emails", "reports").adminAddress("off").poolSize(3).migrations("classpath:db/shop")
                .build()) {
            BatonConfig config = baton.config();

            assertThat(config.get(Setting.REDIS_URI)).isEqualTo("redis://cache:6380");
            assertThat(config.get(Setting.REDIS_CLUSTER_NODES)).containsExactly("cache-1:7000", "cache-2:7000");
            assertThat(config.get(Setting.SCHEMA)).isEqualTo("shop");
            assertThat(config.get(Setting.MODE)).isEqualTo(Mode.AT_LEAST_ONCE);
            assertThat(config.queues()).containsExactly(QueueName.of("emails"), QueueName.of("reports"));
            assertThat(config.adminAddress()).isEmpty();
            assertThat(config.poolSize()).isEqualTo(3);
            assertThat(config.get(Setting.MIGRATIONS)).containsExactly("classpath:db/shop");
        }
    }

    @Test
    void theBuilderBeatsTheEnvironmentWhateverTheOrderOfTheCallsAndAnUnsetPoolFollowsTheConcurrency() {
        BatonConfig environment = ConfigLoader.load(Map.of("BATON_CONCURRENCY", "4", "BATON_LEASE", "9s"),
                Optional.empty(), Map.of());

        try (Baton baton = builder().concurrency(20).config(environment).build()) {
            assertThat(baton.config().get(Setting.CONCURRENCY)).isEqualTo(20);
            assertThat(baton.config().poolSize()).as("auto = concurrency + 2").isEqualTo(22);
            assertThat(baton.config().get(Setting.LEASE)).as("from the environment").isEqualTo(Duration.ofSeconds(9));
        }
    }

    @Test
    void anUnsetPoolFollowsTheTransactionsAtOnceWhenJobsCommitInBatches() {
        BatonConfig environment = ConfigLoader.load(Map.of("BATON_CONCURRENCY", "64", "BATON_BATCH_COMMIT", "16"),
                Optional.empty(), Map.of());
        assertThat(environment.poolSize()).as("four batches at once, lookups, relay").isEqualTo(6);

        try (Baton baton = builder().concurrency(256).config(environment).build()) {
            assertThat(baton.config().poolSize()).as("sixteen full batches of 16, plus two").isEqualTo(18);
        }
    }

    @Test
    void theConcurrencyGivenOnTheBuilderLimitsTheJobsRunningAtOnce() {
        AtomicInteger started = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        try (Baton baton = builder().concurrency(2).grace(Duration.ofSeconds(5)).handler(QUEUE, context -> {
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
    void aBadValueFailsAtBuildNamingTheBuilderCallByTheEnvironmentsRule() {
        assertRefused(b -> b.concurrency(0), "Baton.builder().concurrency(0): must be in 1..10000");
        assertRefused(b -> b.maxAttempts(1001), "Baton.builder().maxAttempts(1001): must be in 1..1000");
        assertRefused(b -> b.deliveryLimit(0), "Baton.builder().deliveryLimit(0): must be in 1..1000");
        assertRefused(b -> b.poolSize(0), "Baton.builder().poolSize(0): must be in 1..1000");
        assertRefused(b -> b.batchCommit(1001), "Baton.builder().batchCommit(1001): must be in 1..1000");
        assertRefused(b -> b.lease(Duration.ZERO), "Baton.builder().lease(0s): must be positive");
        assertRefused(b -> b.jobTimeout(Duration.ofSeconds(-1)), "Baton.builder().jobTimeout(-1s): must be positive");
        assertRefused(b -> b.retention(Duration.ZERO), "Baton.builder().retention(0s): must be positive");
        assertRefused(b -> b.backoff(Duration.ofMinutes(10), Duration.ofMinutes(1)),
                "Baton.builder().backoff(10m, 1m): must not be below the initial backoff (10m)");
        assertRefused(b -> b.schema("Shop"), "Baton.builder().schema('Shop'): expected a lower-case SQL identifier");
        assertRefused(b -> b.redis("http://cache"), "Baton.builder().redis('http://cache'): expected redis://");
        assertRefused(b -> b.migrations("db/shop"), "Baton.builder().migrations(db/shop): expected migration locations");
        assertRefused(b -> b.redisClusterNodes("cache-1"),
                "Baton.builder().redisClusterNodes(cache-1): expected comma-separated host:port");
        assertRefused(b -> b.adminAddress("nowhere"), "Baton.builder().adminAddress('nowhere'): expected host:port");
    }

    @Test
    void theEnvironmentStillNamesItsVariable() {
        assertThatThrownBy(() -> ConfigLoader.load(Map.of("BATON_CONCURRENCY", "0"), Optional.empty(), Map.of()))
                .hasMessage("invalid BATON_CONCURRENCY (--concurrency) = '0' from the environment: must be in 1..10000");
    }

    private void assertRefused(UnaryOperator<BatonBuilder> setting, String message) {
        assertThatThrownBy(() -> setting.apply(builder()).build()).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(message);
    }

    private BatonBuilder builder() {
        return Baton.builder().adapters(adapters.ports());
    }
}
