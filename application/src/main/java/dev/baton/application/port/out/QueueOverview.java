package dev.baton.application.port.out;

import dev.baton.domain.JobSighting;
import dev.baton.domain.PartitionStats;
import dev.baton.domain.QueueListing;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueTotals;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What a dashboard reads of the transport beyond one queue's numbers ({@link QueueAdministration#stats}): the queues
 * it holds, their running totals, a queue's partitions and its soonest delayed jobs. Read-only; for people and tools,
 * not for the worker's hot path. Implementations translate their client's exceptions into {@link TransportException}.
 */
public interface QueueOverview {

    /**
     * The queues the transport holds anything of, by name, and those whose keys it cannot read (a key of another
     * type where a queue's stream belongs): listed as damaged with the problem, never failing the listing.
     */
    QueueListing queues();

    /**
     * The running totals of each of {@code queues} (summed over its partitions), read together in one round trip:
     * a dashboard polls them every second. A queue nothing finished in has {@link QueueTotals#none}.
     */
    Map<QueueName, QueueTotals> totals(Collection<QueueName> queues);

    /** Each partition's stream length and pending entries, by index; empty for a queue of one partition. */
    List<PartitionStats> partitionStats(QueueName queue);

    /** The first {@code limit} jobs of the delayed set (retries and scheduled jobs), soonest due first. */
    List<JobSighting.Delayed> delayed(QueueName queue, int limit);
}
