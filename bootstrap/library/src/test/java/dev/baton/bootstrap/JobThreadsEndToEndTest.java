package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.service.JobThreads;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The job threads on real Redis and PostgreSQL. A virtual thread interrupted at the deadline has its blocked socket
 * closed by the JDK, a platform thread waits for {@code statement_timeout}: either way the attempt must time out
 * without committing, and the pool (one connection here) must go on serving the next jobs. The suite runs on Java 17
 * and on Java 25 in CI, so both kinds are exercised.
 */
class JobThreadsEndToEndTest {
    private static final int AFTER = 20;

    @ParameterizedTest
    @MethodSource("dev.baton.application.testing.JobThreadChoices#ofThisRuntime")
    void anAttemptStuckInPostgresTimesOutUncommittedAndOthersStillRun(JobThreads threads) {
        QueueName queue = QueueName.of(TestEndpoints.unique("threads").replace('_', '-'));
        BatonConfig config = ConfigLoader.load(Map.of("BATON_SCHEMA", TestEndpoints.unique("threads"),
                "BATON_JOB_THREADS", threads.label(), "BATON_JOB_TIMEOUT", "1s", "BATON_CONCURRENCY", "1",
                "BATON_POOL_SIZE", "1", "BATON_BACKOFF_INITIAL", "50ms", "BATON_BACKOFF_MAX", "50ms",
                "BATON_ADMIN_ADDRESS", "off"), Optional.empty(), Map.of());
        List<String> ranOn = new CopyOnWriteArrayList<>();
        JobHandler handler = context -> {
            ranOn.add(Thread.currentThread().toString());
            Handle handle = context.unwrap(Handle.class);
            if (context.job().id().value().equals("stuck") && context.attempt() == 1) {
                handle.createQuery("SELECT pg_sleep(30)").mapTo(String.class).one();
            }
            return Optional.of("attempt " + context.attempt() + " on "
                    + handle.createQuery("SELECT pg_backend_pid()").mapTo(Integer.class).one());
        };

        try (Baton baton = Baton.builder().config(config).handler(queue.value(), handler)
                .set(REDIS_URI, TestEndpoints.redisUri()).set(JDBC_URL, TestEndpoints.jdbcUrl()).build()) {
            baton.enqueue(queue, JobId.of("stuck"), "{}");
            RunningWorker worker = baton.start(queue.value());

            await().atMost(Duration.ofSeconds(20)).until(() -> worker.counters().completed() == 1);
            for (int i = 0; i < AFTER; i++) {
                baton.enqueue(queue, JobId.of("next-" + i), "{}");
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> worker.counters().completed() == 1 + AFTER);

            assertThat(worker.counters().retried()).isEqualTo(1);
            assertThat(worker.counters().deadLettered()).isZero();
            // the first attempt committed nothing: the completion is the second's
            assertThat(baton.use(LocateJobUseCase.class).locate(new LocateJobUseCase.Command(queue,
                    JobId.of("stuck")))).isInstanceOfSatisfying(Whereabouts.Completed.class, completed ->
                    assertThat(completed.completion().attempt()).isEqualTo(2));
            boolean virtual = threads.resolve(1) == JobThreads.VIRTUAL;
            // Thread.toString() names a virtual thread "VirtualThread[#id,name]/..."
            assertThat(ranOn).hasSize(2 + AFTER).allSatisfy(thread -> {
                assertThat(thread).contains("baton-");
                assertThat(thread.startsWith("VirtualThread")).isEqualTo(virtual);
            });
        }
    }
}
