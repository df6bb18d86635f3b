package dev.baton.adapters.redis;

import dev.baton.domain.QueueName;
import dev.baton.domain.ScheduleName;

/**
 * The Redis keys of one partition of a queue. All share one hash tag, so every script touches a single slot: {@code
 * {queue}} when the queue has one partition (the layout of unpartitioned queues), {@code {queue:p}} for partition
 * {@code p} of several.
 */
record QueueKeys(QueueName queue, String groupName, int partition, int partitions) {

    static QueueKeys of(QueueName queue, String groupSuffix, int partition, int partitions) {
        return new QueueKeys(queue, queue.value() + groupSuffix, partition, partitions);
    }

    /** The hash holding the queue's metadata (its partition count); absent means one partition. */
    static byte[] meta(QueueName queue) {
        return Utf8.bytes("baton:{" + queue.value() + "}:meta");
    }

    /** The key whose presence pauses the queue (all its partitions): in the slot of {@link #meta}. */
    static byte[] paused(QueueName queue) {
        return Utf8.bytes("baton:{" + queue.value() + "}:paused");
    }

    /** The sorted set of cancelled job ids, scored by the cancel's time: in the slot of {@link #meta}. */
    static byte[] cancelled(QueueName queue) {
        return Utf8.bytes("baton:{" + queue.value() + "}:cancelled");
    }

    private String tag() {
        return partitions == 1 ? queue.value() : queue.value() + ":" + partition;
    }

    String streamKey() {
        return "baton:{" + tag() + "}:stream";
    }

    byte[] stream() {
        return Utf8.bytes(streamKey());
    }

    byte[] delayed() {
        return Utf8.bytes("baton:{" + tag() + "}:delayed");
    }

    byte[] dead() {
        return Utf8.bytes("baton:{" + tag() + "}:dead");
    }

    /**
     * The hash from each dead job's key ({@link DeadJobKey}) to its dead letter's entry id: lets a dead letter be
     * written again only when the transport lost it (the execution ledger said the job is dead).
     */
    byte[] deadJobs() {
        return Utf8.bytes("baton:{" + tag() + "}:dead-jobs");
    }

    /** The hash of entry ids to their isolated deliveries: the suspects that ran alone and have not finished. */
    byte[] isolated() {
        return Utf8.bytes("baton:{" + tag() + "}:isolated");
    }

    /** The state of a schedule whose jobs go to this partition (see {@code RedisScheduleFires}). */
    byte[] schedule(ScheduleName name) {
        return Utf8.bytes("baton:{" + tag() + "}:schedule:" + name.value());
    }

    /** The lock of a uniqueness key: holds the id of the job that holds the key. */
    byte[] uniqueLock(String key) {
        return Utf8.bytes(uniqueLockPrefix() + key);
    }

    String uniqueLockPrefix() {
        return "baton:{" + tag() + "}:unique:";
    }

    /** The hash of the stream entries that hold uniqueness keys: entry id to [lock key, job id, period ms]. */
    byte[] uniqueEntries() {
        return Utf8.bytes("baton:{" + tag() + "}:unique-entries");
    }

    /**
     * The hash of this partition's running totals since it was created: fields {@code completed} (entries
     * acknowledged), {@code retried} and {@code dead} (dead letters written), each incremented by the script that does
     * it.
     */
    byte[] totals() {
        return Utf8.bytes("baton:{" + tag() + "}:totals");
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
