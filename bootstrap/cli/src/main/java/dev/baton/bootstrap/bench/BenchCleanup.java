package dev.baton.bootstrap.bench;

import dev.baton.adapters.postgres.PostgresAdapter;
import dev.baton.adapters.redis.RedisAdapter;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.Setting;
import dev.baton.domain.QueueName;
import java.util.List;

/**
 * Deletes what a benchmark created, from an instance of its own that relays nothing. It runs after the measuring
 * instance closed: that one's relay, still claiming outbox rows, would publish into a deleted queue, and its
 * statements on the schema's tables would deadlock with {@code DROP SCHEMA ... CASCADE} taking them one by one.
 */
final class BenchCleanup {

    private BenchCleanup() {
    }

    /** Deletes the queues and, when {@code dropSchema}, the configuration's schema. */
    static void discard(BatonConfig config, List<QueueName> queues, boolean dropSchema) {
        try (Baton cleaner = Baton.builder().config(config).set(Setting.RELAY, false).build()) {
            for (QueueName queue : queues) {
                cleaner.use(RedisAdapter.class).deleteQueue(queue);
            }
            if (dropSchema) {
                cleaner.use(PostgresAdapter.class).dropSchema();
            }
        }
    }
}
