package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.ListDeadLettersUseCase;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One scenario, two wirings: the in-memory adapters module, and the Redis + PostgreSQL modules on real servers.
 * Swapping adapters is swapping modules; the behaviour seen through the use cases is the same.
 */
class BatonScenarioTest {
    private static final int GOOD = 30;

    /** Also the wirings of {@link BatonFailuresTest}. */
    static Stream<Arguments> wirings() {
        Function<BatonBuilder, BatonBuilder> inMemory =
                builder -> builder.adapters(new InMemoryAdapters(Clock.systemUTC()).ports());
        Function<BatonBuilder, BatonBuilder> real = builder -> builder
                .set(REDIS_URI, TestEndpoints.redisUri()).set(JDBC_URL, TestEndpoints.jdbcUrl());
        return Stream.of(Arguments.of("in-memory", inMemory), Arguments.of("redis+postgres", real));
    }

    /** Three attempts with short backoffs, no admin server, a schema of its own. */
    static BatonConfig threeQuickAttempts(String schemaPrefix) {
        return ConfigLoader.load(Map.of("BATON_SCHEMA", TestEndpoints.unique(schemaPrefix),
                "BATON_BACKOFF_INITIAL", "50ms", "BATON_BACKOFF_MAX", "200ms", "BATON_MAX_ATTEMPTS", "3",
                "BATON_ADMIN_ADDRESS", "off"), Optional.empty(), Map.of());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wirings")
    void jobsCompleteOnceRetriesSucceedAndARedrivenLetterCompletes(String name,
                                                                   Function<BatonBuilder, BatonBuilder> wiring) {
        QueueName queue = QueueName.of(TestEndpoints.unique("scenario").replace('_', '-'));
        BatonConfig config = threeQuickAttempts("scenario");
        Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        AtomicBoolean refundsWork = new AtomicBoolean(false);
        JobHandler handler = context -> {
            String id = context.job().id().value();
            runs.computeIfAbsent(id, key -> new AtomicInteger()).incrementAndGet();
            if (id.startsWith("flaky") && context.attempt() == 1) {
                throw new IllegalStateException("first attempt of " + id + " fails");
            }
            if (id.startsWith("refund") && !refundsWork.get()) {
                throw new NonRetryableException("refunds are switched off");
            }
            return Optional.of("done " + id);
        };

        try (Baton baton = wiring.apply(Baton.builder().config(config).handler(queue.value(), handler)).build()) {
            for (int i = 0; i < GOOD; i++) {
                baton.enqueue(queue, JobId.of("job-" + i), "{\"n\":" + i + "}");
            }
            baton.enqueue(queue, JobId.of("flaky-1"), "{}");
            baton.enqueue(queue, JobId.of("refund-1"), "{}");
            RunningWorker worker = baton.start(queue.value());

            await().atMost(Duration.ofSeconds(30)).until(() -> worker.counters().completed() == GOOD + 1
                    && worker.counters().deadLettered() == 1);
            InspectQueueUseCase.QueueReport report = baton.use(InspectQueueUseCase.class)
                    .inspect(new InspectQueueUseCase.Command(queue));
            assertThat(report.completed()).hasValue(GOOD + 1);
            assertThat(report.stats().dead()).isEqualTo(1);
            assertThat(worker.counters().retried()).isEqualTo(1);
            assertThat(runs.get("job-7")).hasValue(1);
            assertThat(runs.get("flaky-1")).hasValue(2);
            StoredDeadLetter dead = baton.use(ListDeadLettersUseCase.class)
                    .list(new ListDeadLettersUseCase.Command(queue, Optional.empty(), 10)).get(0);
            assertThat(dead.letter().reason()).isEqualTo(DeadLetterReason.NON_RETRYABLE);
            assertThat(dead.letter().lastError().message()).contains("refunds are switched off");
            assertThat(baton.job(queue.value(), "job-3"))
                    .isInstanceOfSatisfying(Whereabouts.Completed.class, completed ->
                            assertThat(completed.completion().result()).contains("done job-3"));
            assertThat(baton.job(queue.value(), "nobody")).isInstanceOf(Whereabouts.Unknown.class);

            refundsWork.set(true);
            int redriven = baton.use(RedriveDeadLettersUseCase.class)
                    .redrive(new RedriveDeadLettersUseCase.Command(queue, new DeadLetterSelection.All()));

            assertThat(redriven).isEqualTo(1);
            await().atMost(Duration.ofSeconds(30)).until(() -> worker.counters().completed() == GOOD + 2);
            assertThat(baton.use(InspectQueueUseCase.class).inspect(new InspectQueueUseCase.Command(queue))
                    .stats().dead()).isZero();
            assertThat(runs.values()).allSatisfy(count -> assertThat(count.get()).isLessThanOrEqualTo(2));
        }
    }
}
