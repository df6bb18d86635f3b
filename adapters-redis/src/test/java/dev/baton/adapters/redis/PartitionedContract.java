package dev.baton.adapters.redis;

import dev.baton.application.port.out.DeliveryId;
import dev.baton.domain.QueueName;
import java.util.Map;

/**
 * The transport contracts on a queue of {@link #PARTITIONS} partitions. The contracts' orderings (oldest first, death
 * order) are promises within one partition, so every job of a test carries the partition key {@code j-0}: it lands
 * in the partition that the job id {@code j-0} routes to, the one job whose headers the suite replaces. The other
 * partitions stay empty and every operation still goes over all of them: ids carry their partition, stats and
 * consumers are summed, blocking leases wait on every partition.
 */
abstract class PartitionedContract extends RedisContracts {
    static final int PARTITIONS = 4;
    private static final String KEY = "j-0";

    abstract RawKeys raw();

    /** The namespace of the adapter's keys. */
    Namespace namespace() {
        return Namespace.DEFAULT;
    }

    @Override
    public void prepare(QueueName queue) {
        adapter().declarePartitions(queue, PARTITIONS);
    }

    @Override
    public void forget(QueueName queue) {
        raw().forget(namespace(), queue, PARTITIONS);
    }

    @Override
    public Map<String, String> jobHeaders() {
        return Map.of(QueueLayout.PARTITION_KEY, KEY);
    }

    @Override
    public void appendRaw(QueueName queue, Map<String, String> fields) {
        QueueKeys keys = RawKeys.keys(namespace(), queue, QueueLayout.partitionOf(KEY, PARTITIONS), PARTITIONS);
        raw().commands().xadd(keys.stream(), (Object[]) fieldsAndValues(fields));
    }

    /** One partition's stream of the queue becomes a string: the others stay streams. */
    @Override
    public void damageStream(QueueName queue) {
        QueueKeys keys = RawKeys.keys(namespace(), queue, QueueLayout.partitionOf(KEY, PARTITIONS), PARTITIONS);
        raw().commands().set(keys.stream(), RawRedis.bytes("x"));
    }

    @Override
    public void deleteFromStream(QueueName queue, DeliveryId id) {
        QueueLayout.Located located = new QueueLayout(namespace(), queue, "-workers", PARTITIONS)
                .locate(id.value()).orElseThrow();
        raw().commands().xdel(located.keys().stream(), located.entryId());
    }
}
