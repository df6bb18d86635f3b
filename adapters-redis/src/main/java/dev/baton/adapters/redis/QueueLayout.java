package dev.baton.adapters.redis;

import dev.baton.domain.Job;
import dev.baton.domain.QueueName;
import dev.baton.domain.Uniqueness;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.zip.CRC32;

/**
 * A queue split into {@code partitions} partitions, each with keys of its own (one hash slot each). A job goes to
 * partition {@code crc32(key) mod partitions}, where the key is its {@value #PARTITION_KEY} header, else its
 * uniqueness key (so that one partition's lock guards the key for the whole queue), else its job id.
 * Delivery and dead-letter ids are {@code <partition>/<entry id>}, or the bare entry id with one partition.
 */
record QueueLayout(Namespace namespace, QueueName queue, String groupSuffix, int partitions) {
    /** The header that routes jobs: equal keys, same partition, so they are delivered in the order enqueued. */
    static final String PARTITION_KEY = "partition_key";

    List<QueueKeys> all() {
        return IntStream.range(0, partitions).mapToObj(this::partition).toList();
    }

    QueueKeys partition(int partition) {
        return QueueKeys.of(namespace, queue, groupSuffix, partition, partitions);
    }

    QueueKeys route(Job job) {
        if (partitions == 1) {
            return partition(0);
        }
        String key = job.headers().getOrDefault(PARTITION_KEY,
                job.headers().getOrDefault(Uniqueness.KEY_HEADER, job.id().value()));
        return partition(partitionOf(key, partitions));
    }

    static int partitionOf(String key, int partitions) {
        CRC32 crc = new CRC32();
        crc.update(key.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % partitions);
    }

    /** An id of this queue's entries split into its partition and entry id; empty when it cannot be one. */
    Optional<Located> locate(String id) {
        if (partitions == 1) {
            return Optional.of(new Located(partition(0), id));
        }
        int slash = id.indexOf('/');
        if (slash < 1 || slash > 5) {
            return Optional.empty();
        }
        try {
            int partition = Integer.parseInt(id.substring(0, slash));
            return partition >= 0 && partition < partitions
                    ? Optional.of(new Located(partition(partition), id.substring(slash + 1)))
                    : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Entry ids grouped by partition, in the order given; ids that are not of this queue's layout are left out. */
    Map<QueueKeys, List<String>> byPartition(Collection<?> ids) {
        Map<QueueKeys, List<String>> byPartition = new LinkedHashMap<>();
        for (Object id : ids) {
            locate(id.toString()).ifPresent(located ->
                    byPartition.computeIfAbsent(located.keys(), k -> new ArrayList<>()).add(located.entryId()));
        }
        return byPartition;
    }

    record Located(QueueKeys keys, String entryId) {
    }
}
