package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.adapters.redis.testing.TestRedis;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The trace context a job carries (its {@code traceparent}, {@code tracestate} and {@code first_attempt_traceparent}
 * fields, headers to the transport) survives every move of the entry: a retry through the delayed set, a reclaim by
 * another consumer, the dead letters and their redrive. Against a real Redis, through the Lua scripts.
 */
class TraceContextFieldsTest {
    private static final Duration SHORT_BLOCK = Duration.ofMillis(20);
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    private static final Map<String, String> TRACE_CONTEXT = Map.of(
            "traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "tracestate", "vendor=opaque,other=x",
            "first_attempt_traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-b7ad6b7169203331-01",
            "tenant", "acme");
    private static RedisAdapter adapter;
    private static RawRedis raw;

    private final QueueName queue = QueueName.of("trace-fields-" + UUID.randomUUID().toString().substring(0, 13));
    private final ConsumerName alice = ConsumerName.of("alice");
    private final ConsumerName bob = ConsumerName.of("bob");

    @BeforeAll
    static void connect() {
        adapter = RedisAdapter.open(RedisAdapter.Config.of(TestRedis.uri()), Clock.systemUTC());
        raw = new RawRedis(TestRedis.uri());
    }

    @AfterAll
    static void disconnect() {
        adapter.close();
        raw.close();
    }

    @BeforeEach
    void publishATracedJob() {
        adapter.publisher().publish(Job.create(JobId.of("traced-1"), queue, "{}", NOW).withHeaders(TRACE_CONTEXT));
    }

    @AfterEach
    void cleanUp() {
        raw.forget(queue);
    }

    @Test
    void theContextIsOnThePublishedEntryAndKeptThroughADelayedRetry() {
        Delivery first = leaseOne(alice);
        assertThat(streamFields(RawRedis.stream(queue)).get(0)).containsAllEntriesOf(TRACE_CONTEXT);

        adapter.leases().retryLater(first, job(first).retriedAfter(JobError.retryable("E", "boom"), NOW));
        assertThat(adapter.maintenance().promoteDue(queue, NOW, 10)).isEqualTo(1);
        Delivery retried = leaseOne(alice);

        assertThat(job(retried).attempt()).isEqualTo(1);
        assertThat(job(retried).headers()).isEqualTo(TRACE_CONTEXT);
    }

    @Test
    void aReclaimedEntryKeepsItsTraceContext() {
        Delivery abandoned = leaseOne(alice);
        raw.makeIdle(queue, abandoned.id().value(), alice.value(), Duration.ofMinutes(10));

        Reclaimed reclaimed = adapter.maintenance().reclaimAbandoned(queue, bob, Duration.ofMinutes(5), 10);

        assertThat(reclaimed.deliveries()).singleElement()
                .satisfies(delivery -> assertThat(job(delivery).headers()).isEqualTo(TRACE_CONTEXT));
    }

    @Test
    void aDeadLetterKeepsTheContextAndItsRedriveCarriesItToTheStream() {
        Delivery failed = leaseOne(alice);
        adapter.leases().deadLetter(failed, DeadLetter.of(job(failed), DeadLetterReason.EXHAUSTED,
                JobError.retryable("E", "boom"), 3, NOW));

        assertThat(streamFields(RawRedis.dead(queue))).singleElement()
                .satisfies(fields -> assertThat(fields).containsAllEntriesOf(TRACE_CONTEXT));
        assertThat(adapter.administration().deadLetters(queue, Optional.empty(), 10)).singleElement()
                .satisfies(stored -> assertThat(stored.letter().job().orElseThrow().headers())
                        .isEqualTo(TRACE_CONTEXT));
        assertThat(adapter.administration().redrive(queue, new DeadLetterSelection.All())).isEqualTo(1);

        Delivery redriven = leaseOne(bob);
        assertThat(job(redriven).attempt()).isZero();
        assertThat(job(redriven).headers()).isEqualTo(TRACE_CONTEXT);
    }

    private Delivery leaseOne(ConsumerName consumer) {
        List<Delivery> leased = adapter.leases().lease(queue, consumer, 1, SHORT_BLOCK).deliveries();
        assertThat(leased).hasSize(1);
        return leased.get(0);
    }

    private static Job job(Delivery delivery) {
        return ((Delivery.Leased) delivery).job();
    }

    private static List<Map<String, String>> streamFields(byte[] key) {
        List<StreamMessage<byte[], byte[]>> entries = raw.commands().xrange(key, Range.unbounded(),
                Limit.from(100));
        return entries.stream().map(entry -> {
            Map<String, String> fields = new HashMap<>();
            entry.getBody().forEach((name, value) -> fields.put(new String(name, StandardCharsets.UTF_8),
                    new String(value, StandardCharsets.UTF_8)));
            return fields;
        }).toList();
    }
}
