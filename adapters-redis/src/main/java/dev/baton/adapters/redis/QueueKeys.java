package dev.baton.adapters.redis;

import dev.baton.domain.QueueName;
import dev.baton.domain.ScheduleName;

/**
 * The Redis keys of one partition of a queue, in its {@link Namespace}. All share one hash tag, so every script
 * touches a single slot: {@code {queue}} when the queue has one partition (the layout of unpartitioned queues),
 * {@code {queue:p}} for partition {@code p} of several; the namespace stays outside the braces.
 */
record QueueKeys(Namespace namespace, QueueName queue, String groupName, int partition, int partitions) {

    static QueueKeys of(Namespace namespace, QueueName queue, String groupSuffix, int partition, int partitions) {
        return new QueueKeys(namespace, queue, queue.value() + groupSuffix, partition, partitions);
    }

    private String tag() {
        return partitions == 1 ? queue.value() : queue.value() + ":" + partition;
    }

    private byte[] key(String name) {
        return Utf8.bytes(namespace.key(tag(), name));
    }

    String streamKey() {
        return namespace.key(tag(), "stream");
    }

    byte[] stream() {
        return Utf8.bytes(streamKey());
    }

    byte[] delayed() {
        return key("delayed");
    }

    byte[] dead() {
        return key("dead");
    }

    /**
     * The hash from each dead job's key ({@link DeadJobKey}) to its dead letter's entry id: lets a dead letter be
     * written again only when the transport lost it (the execution ledger said the job is dead).
     */
    byte[] deadJobs() {
        return key("dead-jobs");
    }

    /** The hash of entry ids to their isolated deliveries: the suspects that ran alone and have not finished. */
    byte[] isolated() {
        return key("isolated");
    }

    /** The state of a schedule whose jobs go to this partition (see {@code RedisScheduleFires}). */
    byte[] schedule(ScheduleName name) {
        return key("schedule:" + name.value());
    }

    /** The lock of a uniqueness key: holds the id of the job that holds the key. */
    byte[] uniqueLock(String key) {
        return Utf8.bytes(uniqueLockPrefix() + key);
    }

    String uniqueLockPrefix() {
        return namespace.key(tag(), "unique:");
    }

    /** The hash of the stream entries that hold uniqueness keys: entry id to [lock key, job id, period ms]. */
    byte[] uniqueEntries() {
        return key("unique-entries");
    }

    /**
     * The hash of this partition's running totals since it was created: fields {@code completed} (entries
     * acknowledged), {@code retried} and {@code dead} (dead letters written), each incremented by the script that does
     * it.
     */
    byte[] totals() {
        return key("totals");
    }

    /** Every key of this partition (all in its slot): what deleting the partition removes. */
    byte[][] all() {
        return new byte[][] {stream(), delayed(), dead(), deadJobs(), isolated(), uniqueEntries(), totals()};
    }

    byte[] group() {
        return Utf8.bytes(groupName);
    }

    /** The port's id of an entry of this partition: the entry id itself when the queue has one partition. */
    String idOf(String entryId) {
        return partitions == 1 ? entryId : partition + "/" + entryId;
    }
}
