package dev.baton.adapters.redis;

import dev.baton.application.port.out.AcknowledgedLease;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.Lease;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueOverview;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.application.port.out.ScheduleFires;
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
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import dev.baton.domain.QueueTotals;
import dev.baton.domain.Retention;
import dev.baton.domain.StoredDeadLetter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The stream transport's ports on Redis Streams; the key layout and wire protocol are described in docs/REDIS.md,
 * partitioned queues in docs/SCALING.md. Every operation on a queue works on each of its partitions (one hash slot
 * each) and sums up; a queue with one partition uses exactly the keys and ids of an unpartitioned one.
 *
 * <p>A façade: it checks the ports' arguments (before anything reaches Redis) and hands each operation to the part
 * that does that one job. The parts share the queues' {@link Partitions} and translate failures with {@link Calls}.
 */
final class RedisStreamTransport
        implements JobPublisher, JobLeases, QueueMaintenance, QueueAdministration, QueueOverview {
    private final Partitions partitions;
    private final LayoutChanges layoutChanges;
    private final Publishing publishing;
    private final Leasing leasing;
    private final PendingEntries pending;
    private final EntryMoves moves;
    private final Statistics statistics;
    private final Totals totals;
    private final Housekeeping housekeeping;
    private final DeadLetters deadLetters;
    private final JobLookup lookup;
    private final QueueDirectory directory;
    private final RedisScheduleFires scheduleFires;
    private final QueuePauses pauses;
    private final JobCancels cancels;
    private final ConsumerClaims claims;

    /**
     * @param pipeline a connection that does not flush automatically, for batches; used only by publishing
     * @param claims   the consumer names this process's workers hold
     */
    RedisStreamTransport(Link connection, Link pipeline, BlockingReads blockingReads, LuaScripts scripts,
                         WireMapping wire, RedisAdapter.Config config, Clock clock, ConsumerClaims claims) {
        Groups groups = new Groups(connection.sync());
        Replies replies = new Replies(config.commandTimeout());
        Deliveries deliveries = new Deliveries(wire);
        this.partitions = new Partitions(connection.sync(), scripts, groups, config.keyNamespace(),
                config.groupSuffix(), config.groupStartsAtEnd());
        this.statistics = new Statistics(connection, partitions, replies);
        this.totals = new Totals(connection, partitions, replies);
        this.layoutChanges = new LayoutChanges(connection.sync(), partitions, groups, statistics);
        this.publishing = new Publishing(pipeline, scripts, partitions, wire, replies, config.commandTimeout());
        this.cancels = new JobCancels(connection, config.keyNamespace());
        this.leasing = new Leasing(connection, blockingReads, scripts, partitions, deliveries, replies,
                config.commandTimeout(), cancels);
        this.pending = new PendingEntries(connection.sync(), scripts, partitions, deliveries);
        this.moves = new EntryMoves(scripts, partitions, wire, clock);
        this.housekeeping = new Housekeeping(connection.sync(), scripts, partitions, groups);
        this.deadLetters = new DeadLetters(connection.sync(), partitions, moves, wire);
        this.lookup = new JobLookup(connection.sync(), partitions, groups, deadLetters, wire);
        this.directory = new QueueDirectory(connection.sync(), config.keyNamespace());
        this.scheduleFires = new RedisScheduleFires(connection.sync(), scripts, partitions, wire);
        this.pauses = new QueuePauses(connection, config.keyNamespace(), replies);
        this.claims = claims;
    }

    /** The prefix of every key of this transport's. */
    Namespace namespace() {
        return partitions.namespace();
    }

    /** The schedules' watermarks, kept with the queues' keys (RedisAdapter's own API). */
    ScheduleFires scheduleFires() {
        return scheduleFires;
    }

    // ---------------------------------------------------------------- partitions (RedisAdapter's own API)

    /** @throws InvalidValueException when the queue already has another partition count */
    void declarePartitions(QueueName queue, int count) {
        partitions.declarePartitions(queue, count);
    }

    /** The queue's partition count as recorded in Redis (1 when none is recorded). */
    int partitions(QueueName queue) {
        return partitions.refreshLayout("read partitions", queue).partitions();
    }

    /** @throws InvalidValueException when the queue still holds work */
    void repartition(QueueName queue, int count) {
        layoutChanges.repartition(queue, count);
    }

    void delete(QueueName queue) {
        layoutChanges.delete(queue);
    }

    // ---------------------------------------------------------------- JobPublisher

    @Override
    public void publish(Job job) {
        publishing.publishAll(List.of(job));
    }

    @Override
    public void publishAll(List<Job> jobs) {
        publishing.publishAll(jobs);
    }

    @Override
    public void deadLetterUnpublished(DeadLetter letter, String origin) {
        moves.deadLetterUnpublished(letter, origin);
    }

    @Override
    public JobId publishUnique(Job job) {
        return publishing.publishUnique(job);
    }

    // ---------------------------------------------------------------- JobLeases

    @Override
    public void declare(QueueName queue) {
        partitions.declare(queue);
    }

    @Override
    public Lease lease(QueueName queue, ConsumerName consumer, int max, Duration block) {
        requirePositive(max);
        if (block.isNegative()) {
            throw new IllegalArgumentException("block must not be negative, got " + block);
        }
        return leasing.lease(queue, consumer, max, block);
    }

    @Override
    public AcknowledgedLease acknowledgeAndLease(QueueName queue, Collection<DeliveryId> ids, ConsumerName consumer,
                                                 int max) {
        requirePositive(max);
        return leasing.acknowledgeAndLease(queue, ids, consumer, max)
                .orElseGet(() -> JobLeases.super.acknowledgeAndLease(queue, ids, consumer, max));
    }

    @Override
    public List<Delivery> leaseOwnPending(QueueName queue, ConsumerName consumer, int max) {
        requirePositive(max);
        return leasing.leaseOwnPending(queue, consumer, max);
    }

    @Override
    public Set<DeliveryId> extendLeases(QueueName queue, ConsumerName consumer, Collection<DeliveryId> ids) {
        return pending.extendLeases(queue, consumer, ids);
    }

    @Override
    public OptionalLong isolate(Delivery.Leased delivery, ConsumerName consumer) {
        return pending.isolate(delivery, consumer);
    }

    @Override
    public void acknowledge(QueueName queue, Collection<DeliveryId> ids) {
        pending.acknowledge(queue, ids);
    }

    @Override
    public void retryLater(Delivery delivery, Job retried) {
        requireSameQueue(delivery, retried.queue());
        moves.retryLater(delivery, retried);
    }

    @Override
    public void deadLetter(Delivery delivery, DeadLetter letter) {
        requireSameQueue(delivery, letter.queue());
        moves.deadLetter(delivery, letter);
    }

    @Override
    public Set<QueueName> paused(Collection<QueueName> queues) {
        return pauses.paused(queues);
    }

    @Override
    public Set<JobId> cancelled(QueueName queue, Collection<JobId> jobs) {
        return cancels.cancelled(queue, jobs);
    }

    // ---------------------------------------------------------------- QueueMaintenance

    @Override
    public int promoteDue(QueueName queue, Instant now, int max) {
        requirePositive(max);
        return moves.promoteDue(queue, now, max);
    }

    @Override
    public Reclaimed reclaimAbandoned(QueueName queue, ConsumerName consumer, Duration minIdle, int max) {
        requirePositive(max);
        return pending.reclaimAbandoned(queue, consumer, minIdle, max);
    }

    @Override
    public TrimOutcome trim(QueueName queue, Retention retention, Instant now) {
        cancels.forgetBefore(queue, now.minus(retention.maxAge()));
        return housekeeping.trim(queue, retention, now);
    }

    @Override
    public List<ConsumerName> removeIdleConsumers(QueueName queue, Duration idle) {
        return housekeeping.removeIdleConsumers(queue, idle);
    }

    @Override
    public ConsumerName claimConsumer(ConsumerName wanted) {
        return claims.claim(wanted);
    }

    @Override
    public void releaseConsumer(ConsumerName claimed) {
        claims.release(claimed);
    }

    @Override
    public List<ConsumerName> removeStaleConsumers(QueueName queue, ConsumerName name) {
        return housekeeping.removeStaleConsumers(queue, name, claims.live());
    }

    // ---------------------------------------------------------------- QueueAdministration

    @Override
    public QueueStats stats(QueueName queue) {
        return statistics.stats(queue);
    }

    @Override
    public Map<QueueName, QueueTotals> totals(Collection<QueueName> queues) {
        return totals.of(queues);
    }

    @Override
    public Optional<JobSighting> find(QueueName queue, JobId id) {
        return lookup.find(queue, id);
    }

    @Override
    public List<QueueName> queues() {
        return directory.queues();
    }

    @Override
    public List<PartitionStats> partitionStats(QueueName queue) {
        return statistics.partitions(queue);
    }

    @Override
    public List<JobSighting.Delayed> delayed(QueueName queue, int limit) {
        requirePositive(limit);
        return lookup.delayed(queue, limit);
    }

    @Override
    public List<StoredDeadLetter> deadLetters(QueueName queue, Optional<DeadLetterId> after, int limit) {
        requirePositive(limit);
        return deadLetters.list(queue, after, limit);
    }

    @Override
    public int redrive(QueueName queue, DeadLetterSelection selection) {
        return deadLetters.redrive(queue, selection);
    }

    @Override
    public int purgeDeadLetters(QueueName queue, DeadLetterSelection selection) {
        return deadLetters.purge(queue, selection);
    }

    @Override
    public void pause(QueueName queue) {
        pauses.pause(queue);
    }

    @Override
    public void resume(QueueName queue) {
        pauses.resume(queue);
    }

    @Override
    public boolean cancel(QueueName queue, JobId id, Instant at) {
        return cancels.cancel(queue, id, at);
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
