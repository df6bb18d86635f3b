package dev.baton.bootstrap.cli;

import dev.baton.adapters.redis.RedisAdapter;
import dev.baton.bootstrap.Baton;
import dev.baton.domain.QueueName;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --partitions P} of {@code enqueue} and {@code worker}: declares each queue's partition count before use, so
 * a producer or worker that expects another count than the one recorded in Redis stops at once (exit 2).
 */
final class PartitionsOption {
    @Option(names = "--partitions", paramLabel = "P",
            description = "declare each queue with P partitions first (1..1024); fails when Redis records another "
                    + "count (see `baton queue`)")
    Integer partitions;

    boolean given() {
        return partitions != null;
    }

    void declare(Baton baton, List<QueueName> queues) {
        if (given()) {
            RedisAdapter redis = baton.use(RedisAdapter.class);
            queues.forEach(queue -> redis.declarePartitions(queue, partitions));
        }
    }
}
