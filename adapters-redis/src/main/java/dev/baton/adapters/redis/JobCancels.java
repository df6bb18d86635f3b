package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;
import static dev.baton.adapters.redis.Utf8.bytes;

import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import io.lettuce.core.Range;
import io.lettuce.core.ZAddArgs;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The jobs an operator cancelled: one sorted set per queue ({@link Namespace#cancelled}), in the queue's own slot
 * whatever its partitions (a cancel knows the job id, not the partition its headers route it to), scored by the
 * cancel's time. A cancel is one {@code ZADD NX}, so its reply is the answer; a worker asks with one
 * {@code ZMSCORE}. Members go with the queue's retention ({@link #forgetBefore}) and with the queue.
 */
final class JobCancels {
    private final Link connection;
    private final Namespace namespace;

    JobCancels(Link connection, Namespace namespace) {
        this.connection = connection;
        this.namespace = namespace;
    }

    /** @return true when this call recorded the cancel, false when it was recorded before */
    boolean cancel(QueueName queue, JobId id, Instant at) {
        return call("cancel", queue, () -> connection.sync().zadd(namespace.cancelled(queue), ZAddArgs.Builder.nx(),
                (double) at.toEpochMilli(), bytes(id.value()))) > 0;
    }

    Set<JobId> cancelled(QueueName queue, Collection<JobId> jobs) {
        if (jobs.isEmpty()) {
            return Set.of();
        }
        List<JobId> asked = List.copyOf(jobs);
        byte[][] members = asked.stream().map(id -> bytes(id.value())).toArray(byte[][]::new);
        List<Double> scores = call("read cancels", queue,
                () -> connection.sync().zmscore(namespace.cancelled(queue), members));
        Set<JobId> cancelled = new HashSet<>();
        for (int i = 0; i < asked.size(); i++) {
            if (scores.get(i) != null) {
                cancelled.add(asked.get(i));
            }
        }
        return Set.copyOf(cancelled);
    }

    /** Forgets the cancels recorded before {@code cutoff}. @return how many */
    long forgetBefore(QueueName queue, Instant cutoff) {
        return call("forget cancels", queue, () -> connection.sync().zremrangebyscore(namespace.cancelled(queue),
                Range.create(Double.NEGATIVE_INFINITY, (double) cutoff.toEpochMilli() - 1)));
    }
}
