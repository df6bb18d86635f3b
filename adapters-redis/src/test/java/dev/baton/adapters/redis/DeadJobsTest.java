package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.RawRedis.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.adapters.redis.testing.TestRedis;
import dev.baton.application.port.out.Delivery;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dead jobs hash, which lets a dead letter be written once per job: one key per dead letter, forgotten when the
 * dead letter is redriven or purged, so that it never grows with what left the dead letters.
 */
class DeadJobsTest {
    private static final Duration SHORT_BLOCK = Duration.ofMillis(20);
    private static final JobError ERROR = JobError.permanent("t", "m");
    private static RedisAdapter adapter;
    private static RawRedis raw;

    private final QueueName queue = QueueName.of("dead-jobs-" + UUID.randomUUID().toString().substring(0, 13));
    private final ConsumerName alice = ConsumerName.of("alice");

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

    @AfterEach
    void forgetQueue() {
        raw.forget(queue);
    }

    @Test
    void eachDeadLetterHasOneKeyWhichARedriveOrAPurgeForgets() {
        adapter.leases().declare(queue);
        adapter.publisher().publish(Job.create(JobId.of("j1"), queue, "{}", Instant.now()));
        adapter.publisher().publish(Job.create(JobId.of("j2"), queue, "{}", Instant.now()));
        // a malformed entry without a job id is keyed by its entry id
        String malformed = raw.append(queue, bytes("payload"), bytes("{}"));
        for (Delivery delivery : adapter.leases().lease(queue, alice, 3, SHORT_BLOCK).deliveries()) {
            adapter.leases().deadLetter(delivery, letter(delivery));
        }

        assertThat(deadJobKeys()).containsExactlyInAnyOrder("j1", "j2", "entry:" + malformed);

        String firstDeadLetter = adapter.administration().deadLetters(queue, Optional.empty(), 1).get(0)
                .id().value();
        adapter.administration().redrive(queue, new DeadLetterSelection.ByIds(List.of(
                DeadLetterId.of(firstDeadLetter))));
        assertThat(deadJobKeys()).containsExactlyInAnyOrder("j2", "entry:" + malformed);

        adapter.administration().purgeDeadLetters(queue, new DeadLetterSelection.All());
        assertThat(deadJobKeys()).isEmpty();
    }

    private DeadLetter letter(Delivery delivery) {
        if (delivery instanceof Delivery.Malformed bad) {
            return DeadLetter.malformed(queue, bad.fields(), bad.problem(), Instant.now());
        }
        return DeadLetter.of(((Delivery.Leased) delivery).job(), DeadLetterReason.EXHAUSTED, ERROR, 1, Instant.now());
    }

    private List<String> deadJobKeys() {
        return raw.commands().hkeys(RawRedis.deadJobs(queue)).stream()
                .map(key -> new String(key, StandardCharsets.UTF_8)).toList();
    }
}
