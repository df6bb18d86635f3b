package dev.baton.bootstrap.faults;

import java.nio.charset.StandardCharsets;
import java.util.stream.IntStream;
import java.util.zip.CRC32;

/**
 * A queue's Redis key names and its routing, written out as docs/REDIS.md and docs/SCALING.md specify them (not
 * taken from the adapter, so that the probe checks the product against its documentation): {@code baton:{Q}:…} for
 * one partition, {@code baton:{Q:p}:…} for partition {@code p} of several; group {@code Q-workers} on every stream.
 *
 * @param partitions the queue's partition count (1 = unpartitioned)
 */
record KeyLayout(String queue, int partitions) {

    KeyLayout {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
        }
    }

    IntStream indexes() {
        return IntStream.range(0, partitions);
    }

    String stream(int partition) {
        return prefix(partition) + "stream";
    }

    String delayed(int partition) {
        return prefix(partition) + "delayed";
    }

    String dead(int partition) {
        return prefix(partition) + "dead";
    }

    /** The hash from each dead job to its dead letter's entry id. */
    String deadJobs(int partition) {
        return prefix(partition) + "dead-jobs";
    }

    /** The hash of the suspects that ran alone and have not finished. */
    String isolated(int partition) {
        return prefix(partition) + "isolated";
    }

    /** The partition count's hash (absent for an unpartitioned queue). */
    String meta() {
        return "baton:{" + queue + "}:meta";
    }

    /** The key whose presence pauses the queue. */
    String paused() {
        return "baton:{" + queue + "}:paused";
    }

    /** The sorted set of the queue's cancelled job ids. */
    String cancelled() {
        return "baton:{" + queue + "}:cancelled";
    }

    String group() {
        return queue + "-workers";
    }

    /** The partition a job without {@code partition_key} is routed to: CRC-32 of its id, modulo the count. */
    int partitionOf(String jobId) {
        CRC32 crc = new CRC32();
        crc.update(jobId.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % partitions);
    }

    /** An entry's id as deliveries name it: {@code p/id} in a partitioned queue, the stream id otherwise. */
    String entryRef(int partition, String streamId) {
        return partitions == 1 ? streamId : partition + "/" + streamId;
    }

    /** The partition of an {@link #entryRef}. */
    int partitionOfRef(String ref) {
        return partitions == 1 ? 0 : Integer.parseInt(ref.substring(0, ref.indexOf('/')));
    }

    /** The stream id of an {@link #entryRef}. */
    String streamIdOfRef(String ref) {
        return ref.substring(ref.indexOf('/') + 1);
    }

    private String prefix(int partition) {
        return "baton:{" + (partitions == 1 ? queue : queue + ":" + partition) + "}:";
    }
}
