package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.adapters.redis.testing.TestRedis;
import dev.baton.domain.QueueName;
import io.lettuce.core.Consumer;
import io.lettuce.core.XReadArgs;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a group still needs, read against a real Redis while its workers go on acknowledging. */
class GroupsTest {
    private final QueueName queue = QueueName.of("groups-" + UUID.randomUUID());
    private final QueueKeys keys = QueueKeys.of(Namespace.DEFAULT, queue, "-workers", 0, 1);
    private final RawRedis raw = new RawRedis(TestRedis.uri());
    private final Groups groups = new Groups(raw.commands());

    @AfterEach
    void deleteTheQueue() {
        raw.commands().del(keys.stream());
        raw.close();
    }

    @Test
    void theOldestPendingEntryHoldsWhatTheGroupNeeds() {
        groups.create(keys, "0");
        String first = raw.append(queue, RawRedis.bytes("job_id"), RawRedis.bytes("g-1"));
        raw.append(queue, RawRedis.bytes("job_id"), RawRedis.bytes("g-2"));
        deliverAll();

        assertThat(groups.needed(keys, groups.read(keys).orElseThrow())).isEqualTo(EntryId.parse(first));
    }

    /** Read with one entry pending, which its worker acknowledged before the pending entries were looked at. */
    @Test
    void entriesAcknowledgedSinceTheGroupWasReadAreNeededNoMore() {
        groups.create(keys, "0");
        String only = raw.append(queue, RawRedis.bytes("job_id"), RawRedis.bytes("g-1"));
        deliverAll();
        Map<String, Object> readWithOnePending = groups.read(keys).orElseThrow();

        raw.commands().xack(keys.stream(), keys.group(), only);

        assertThat(groups.needed(keys, readWithOnePending)).isEqualTo(EntryId.parse(only).next());
    }

    private void deliverAll() {
        raw.commands().xreadgroup(Consumer.from(keys.group(), RawRedis.bytes("worker-1")),
                XReadArgs.StreamOffset.lastConsumed(keys.stream()));
    }
}
