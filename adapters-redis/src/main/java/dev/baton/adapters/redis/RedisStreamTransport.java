package dev.baton.adapters.redis;

import dev.baton.application.port.out.AcknowledgedLease;
import dev.baton.application.port.out.DelayedJobActions;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.Lease;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.QueueOverview;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.application.port.out.ScheduleFires;
import dev.baton.application.port.out.TransportException;
import dev.baton.application.port.out.TransportMemory;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.PartitionStats;
import dev.baton.domain.QueueListing;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import dev.baton.domain.QueueTotals;
import dev.baton.domain.Retention;
import dev.baton.domain.Schedule;
import dev.baton.domain.ScheduleState;
import dev.baton.domain.StoredDeadLetter;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The stream transport's ports on Redis Streams; the key layout and wire protocol are described in docs/REDIS.md,
 * partitioned queues in docs/SCALING.md. Every operation on a queue works on each of its partitions (one hash slot
 * each) and sums up; a queue with one partition uses exactly the keys and ids of an unpartitioned one.
 *
 * <p>A façade: it checks the ports' arguments (before anything reaches Redis) and hands each operation to the part
 * that does that one job. The parts share the queues' {@link Partitions} and translate failures with {@link Calls}.
 * They ({@link TransportParts}) exist once Redis first answered ({@link FirstConnection}); before that, every
 * operation fails at once.
 */
final class RedisStreamTransport implements JobPublisher, JobLeases, QueueMaintenance, QueueAdministration,
        DelayedJobActions, QueueOverview, ScheduleFires, TransportMemory {
    private final Supplier<TransportParts> parts;

    /** @param parts the parts on Redis's connections; throws {@link TransportException} while there are none */
    RedisStreamTransport(Supplier<TransportParts> parts) {
        this.parts = parts;
    }

    private TransportParts parts() {
        return parts.get();
    }

    // ---------------------------------------------------------------- partitions (RedisAdapter's own API)

    /** @throws InvalidValueException when the queue already has another partition count */
    void declarePartitions(QueueName queue, int count) {
        parts().partitions.declarePartitions(queue, count);
    }

    /** The queue's partition count as recorded in Redis (1 when none is recorded). */
    int partitions(QueueName queue) {
        return parts().partitions.refreshLayout("read partitions", queue).partitions();
    }

    /** @throws InvalidValueException when the queue still holds work */
    void repartition(QueueName queue, int count) {
        parts().layoutChanges.repartition(queue, count);
    }

    void delete(QueueName queue) {
        parts().layoutChanges.delete(queue);
    }

    // ---------------------------------------------------------------- JobPublisher

    @Override
    public void publish(Job job) {
        parts().publishing.publishAll(List.of(job));
    }

    @Override
    public void publishAll(List<Job> jobs) {
        parts().publishing.publishAll(jobs);
    }

    @Override
    public void deadLetterUnpublished(DeadLetter letter, String origin) {
        parts().moves.deadLetterUnpublished(letter, origin);
    }

    @Override
    public JobId publishUnique(Job job) {
        return parts().publishing.publishUnique(job);
    }

    // ---------------------------------------------------------------- JobLeases

    @Override
    public void declare(QueueName queue) {
        parts().partitions.declare(queue);
    }

    @Override
    public Lease lease(QueueName queue, ConsumerName consumer, int max, Duration block) {
        requirePositive(max);
        if (block.isNegative()) {
            throw new IllegalArgumentException("block must not be negative, got " + block);
        }
        return parts().leasing.lease(queue, consumer, max, block);
    }

    @Override
    public AcknowledgedLease acknowledgeAndLease(QueueName queue, Collection<DeliveryId> ids, ConsumerName consumer,
                                                 int max) {
        requirePositive(max);
        return parts().leasing.acknowledgeAndLease(queue, ids, consumer, max)
                .orElseGet(() -> JobLeases.super.acknowledgeAndLease(queue, ids, consumer, max));
    }

    @Override
    public List<Delivery> leaseOwnPending(QueueName queue, ConsumerName consumer, int max) {
        requirePositive(max);
        return parts().leasing.leaseOwnPending(queue, consumer, max);
    }

    @Override
    public Set<DeliveryId> extendLeases(QueueName queue, ConsumerName consumer, Collection<DeliveryId> ids) {
        return parts().pending.extendLeases(queue, consumer, ids);
    }

    @Override
    public OptionalLong isolate(Delivery.Leased delivery, ConsumerName consumer) {
        return parts().pending.isolate(delivery, consumer);
    }

    @Override
    public void acknowledge(QueueName queue, Collection<DeliveryId> ids) {
        parts().pending.acknowledge(queue, ids);
    }

    @Override
    public void retryLater(Delivery delivery, Job retried) {
        requireSameQueue(delivery, retried.queue());
        parts().moves.retryLater(delivery, retried);
    }

    @Override
    public void deadLetter(Delivery delivery, DeadLetter letter) {
        requireSameQueue(delivery, letter.queue());
        parts().moves.deadLetter(delivery, letter);
    }

    @Override
    public Set<QueueName> paused(Collection<QueueName> queues) {
        return parts().pauses.paused(queues);
    }

    @Override
    public Set<JobId> cancelled(QueueName queue, Collection<JobId> jobs) {
        return parts().cancels.cancelled(queue, jobs);
    }

    // ---------------------------------------------------------------- QueueMaintenance

    @Override
    public int promoteDue(QueueName queue, Instant now, int max) {
        requirePositive(max);
        return parts().moves.promoteDue(queue, now, max);
    }

    @Override
    public Reclaimed reclaimAbandoned(QueueName queue, ConsumerName consumer, Duration minIdle, int max) {
        requirePositive(max);
        return parts().pending.reclaimAbandoned(queue, consumer, minIdle, max);
    }

    @Override
    public TrimOutcome trim(QueueName queue, Retention retention, Instant now) {
        parts().cancels.forgetBefore(queue, now.minus(retention.maxAge()));
        return parts().housekeeping.trim(queue, retention, now);
    }

    @Override
    public List<ConsumerName> removeIdleConsumers(QueueName queue, Duration idle) {
        return parts().housekeeping.removeIdleConsumers(queue, idle);
    }

    @Override
    public ConsumerName claimConsumer(ConsumerName wanted) {
        return parts().claims.claim(wanted);
    }

    @Override
    public void releaseConsumer(ConsumerName claimed) {
        parts().claims.release(claimed);
    }

    @Override
    public List<ConsumerName> removeStaleConsumers(QueueName queue, ConsumerName name) {
        TransportParts parts = parts();
        return parts.housekeeping.removeStaleConsumers(queue, name, parts.claims.live());
    }

    // ---------------------------------------------------------------- QueueAdministration

    @Override
    public QueueStats stats(QueueName queue) {
        return parts().statistics.stats(queue);
    }

    @Override
    public Map<QueueName, QueueTotals> totals(Collection<QueueName> queues) {
        return parts().totals.of(queues);
    }

    @Override
    public Optional<JobSighting> find(QueueName queue, JobId id) {
        return parts().lookup.find(queue, id);
    }

    @Override
    public QueueListing queues() {
        return parts().directory.queues();
    }

    @Override
    public List<PartitionStats> partitionStats(QueueName queue) {
        return parts().statistics.partitions(queue);
    }

    @Override
    public List<JobSighting.Delayed> delayed(QueueName queue, int limit) {
        requirePositive(limit);
        return parts().lookup.delayed(queue, limit);
    }

    @Override
    public List<StoredDeadLetter> deadLetters(QueueName queue, Optional<DeadLetterId> after, int limit) {
        requirePositive(limit);
        return parts().deadLetters.list(queue, after, limit);
    }

    @Override
    public Optional<StoredDeadLetter> deadLetter(QueueName queue, DeadLetterId id) {
        return parts().deadLetters.find(queue, id);
    }

    @Override
    public int redrive(QueueName queue, DeadLetterSelection selection) {
        return parts().deadLetters.redrive(queue, selection);
    }

    @Override
    public int purgeDeadLetters(QueueName queue, DeadLetterSelection selection) {
        return parts().deadLetters.purge(queue, selection);
    }

    @Override
    public void pause(QueueName queue) {
        parts().pauses.pause(queue);
    }

    @Override
    public void resume(QueueName queue) {
        parts().pauses.resume(queue);
    }

    @Override
    public boolean cancel(QueueName queue, JobId id, Instant at) {
        return parts().cancels.cancel(queue, id, at);
    }

    @Override
    public boolean makeDue(QueueName queue, JobId id, Instant now) {
        return parts().delayedChanges.makeDue(queue, id, now);
    }

    @Override
    public boolean removeDelayed(QueueName queue, JobId id) {
        return parts().delayedChanges.remove(queue, id);
    }

    // ---------------------------------------------------------------- ScheduleFires (RedisAdapter's own API)

    @Override
    public ScheduleState state(Schedule schedule) {
        return parts().scheduleFires.state(schedule);
    }

    @Override
    public boolean fire(Schedule schedule, Instant fireTime) {
        return parts().scheduleFires.fire(schedule, fireTime);
    }

    @Override
    public void settle(Schedule schedule, Instant through) {
        parts().scheduleFires.settle(schedule, through);
    }

    // ---------------------------------------------------------------- TransportMemory

    @Override
    public String epoch() {
        return parts().memory.epoch();
    }

    private static void requirePositive(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, got " + max);
        }
    }

    private static void requireSameQueue(Delivery delivery, QueueName queue) {
        if (!delivery.queue().equals(queue)) {
            throw new IllegalArgumentException("delivery of queue " + delivery.queue() + " cannot move to queue "
                    + queue);
        }
    }
}
