package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.ADMIN_ADDRESS;
import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.MODE;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.adapters.redis.RedisAdapter;
import dev.baton.application.handler.JobHandler;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.bootstrap.config.Mode;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import dev.baton.domain.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Three Baton instances (three workers and three schedulers, no leader) fire one every-second schedule on real Redis
 * and PostgreSQL for about twenty seconds, and one of them stops a third of the way in. Every fire time from the
 * first to the last ran exactly once: none twice (asynq#1013's duplicates with two schedulers), none skipped (River's
 * missed fire at a leader change). In at-least-once mode no ledger hides a second stream entry: every delivery runs.
 */
class SchedulesEndToEndTest {
    private static final int SECONDS = 20;

    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void threeSchedulersRunEachFireTimeOnceWhileOneOfThemStops(Mode mode) {
        QueueName queue = QueueName.of(TestEndpoints.unique("ticks").replace('_', '-'));
        Schedule tick = Schedule.of("tick", "every 1s", queue.value(), "{}");
        Map<Instant, AtomicInteger> runs = new ConcurrentHashMap<>();
        JobHandler handler = context -> {
            Instant fireTime = Instant.parse(context.job().headers().get(Schedule.FIRE_TIME_HEADER));
            runs.computeIfAbsent(fireTime, time -> new AtomicInteger()).incrementAndGet();
            return Optional.empty();
        };
        String schema = TestEndpoints.unique("ticks");
        List<Baton> instances = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                Baton baton = builder(schema, mode).handler(queue.value(), handler).schedule(tick).build();
                instances.add(baton);
                baton.start(new RunWorkerUseCase.Command(List.of(queue), ConsumerName.of("worker-" + i), 2,
                        Optional.empty()));
            }

            await().atMost(Duration.ofSeconds(60)).until(() -> runs.size() >= SECONDS / 3);
            instances.get(0).close();
            await().atMost(Duration.ofSeconds(90)).until(() -> runs.size() >= SECONDS);
            instances.forEach(Baton::close);

            List<Instant> fired = runs.keySet().stream().sorted().toList();
            Instant first = fired.get(0);
            List<Instant> everySecond = Stream.iterate(first, time -> time.plusSeconds(1))
                    .limit(fired.size()).toList();
            assertThat(fired).as("no fire time skipped").isEqualTo(everySecond);
            assertThat(runs).as("each fire time ran once").allSatisfy((time, count) -> assertThat(count).hasValue(1));
            if (mode == Mode.EXACTLY_ONCE) {
                try (Baton reader = builder(schema, mode).build()) {
                    assertThat(fired).allSatisfy(time -> assertThat(reader.job(queue.value(), tick.jobId(time).value()))
                            .as("the ledger's completion of %s", time).isInstanceOf(Whereabouts.Completed.class));
                }
            }
        } finally {
            instances.forEach(Baton::close);
            try (Baton cleanup = builder(schema, mode).build()) {
                cleanup.use(RedisAdapter.class).deleteQueue(queue);
            }
        }
    }

    /** One ledger schema for all three: the instances are workers of one deployment. */
    private static BatonBuilder builder(String schema, Mode mode) {
        return Baton.builder().set(REDIS_URI, TestEndpoints.redisUri()).set(JDBC_URL, TestEndpoints.jdbcUrl())
                .set(SCHEMA, schema)
                .set(MODE, mode).set(ADMIN_ADDRESS, "off").shutdownHook(false);
    }
}
