package dev.baton.application.testing;

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
import dev.baton.application.port.out.TransportException;
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
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueListing;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import dev.baton.domain.QueueTotals;
import dev.baton.domain.Retention;
import dev.baton.domain.StoredDeadLetter;
import dev.baton.domain.Uniqueness;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * The stream transport in memory, all four ports in one object, behaving like the Redis Streams one: per queue an
 * {@link InMemoryQueue} with {@code <ms>-<seq>} entry ids taken from the injected clock. Jobs travel as the same wire
 * fields Redis carries ({@link WireFields}), so malformed entries can be injected with {@link #appendRaw}.
 *
 * <p>One monitor (this object's) guards every queue, which makes every move atomic; {@link #lease} really waits (on
 * that monitor) for up to its block time, and whatever adds to a stream wakes it. Idle times come from the clock.
 */
public final class InMemoryStreamTransport
        implements JobPublisher, JobLeases, QueueMaintenance, QueueAdministration, QueueOverview, DelayedJobActions {
    private final Clock clock;
    private final WireFields wire;
    private final Map<QueueName, InMemoryQueue> queues = new HashMap<>();
    private final Map<QueueName, String> damaged = new HashMap<>();
    private int failingLeases;
    private int failingUnpublishedDeadLetters;
    /** Each queue's cancelled job ids, with the time of their cancel. */
    private final Map<QueueName, Map<JobId, Instant>> cancels = new HashMap<>();
    private int failingCancelReads;
    /** The consumer names live workers hold ({@link #claimConsumer}). */
    private final Set<ConsumerName> claimed = new HashSet<>();
    private volatile boolean unreachable;
    private final AtomicLong acknowledgedInFrontOfLeases = new AtomicLong();
    /** Open unless a test holds acknowledgements sent on their own ({@link #holdDirectAcknowledgements}). */
    private volatile CountDownLatch directAcknowledgements = new CountDownLatch(0);
    private int largestLease;
    private long leases;
    private long leasesAtLastReclaim;

    public InMemoryStreamTransport(Clock clock, PayloadLimit payloadLimit) {
        this.clock = clock;
        this.wire = new WireFields(payloadLimit);
    }

    public InMemoryStreamTransport(Clock clock) {
        this(clock, PayloadLimit.DEFAULT);
    }

    /** Test hook: appends an entry with these fields verbatim, valid job or not (like a foreign {@code XADD}). */
    public synchronized void appendRaw(QueueName queue, Map<String, String> fields) {
        queue(queue).append(Map.copyOf(fields), clock.instant());
        notifyAll();
    }

    /**
     * Test hook: acknowledgements sent on their own wait (a minute at most) until some went in front of a lease, as
     * behind a slow Redis; a test of that path then needs no luck with thread timing.
     */
    public void holdDirectAcknowledgements() {
        directAcknowledgements = new CountDownLatch(1);
    }

    /** Test hook: deletes an entry's data but leaves it in the pending list (like {@code XDEL}). */
    public synchronized void deleteEntry(QueueName queue, DeliveryId id) {
        queue(queue).deleteEntry(id);
    }

    /** Test hook: the next {@code count} calls of {@link #deadLetterUnpublished} throw {@link TransportException}. */
    public synchronized void failNextUnpublishedDeadLetters(int count) {
        failingUnpublishedDeadLetters = count;
    }

    /**
     * Test hook: while {@code down}, every call of the ports throws {@link TransportException} at once, as the Redis
     * adapter's calls do while Redis has never answered.
     */
    public void setUnreachable(boolean down) {
        unreachable = down;
    }

    /** Test hook: the next {@code count} calls of {@link #lease} throw {@link TransportException} (server lost). */
    public synchronized void failNextLeases(int count) {
        failingLeases = count;
    }

    /**
     * Test hook: the next {@code count} reads of the cancels throw {@link TransportException}: calls of
     * {@link #cancelled}, and leases, which then leave what they read pending.
     */
    public synchronized void failNextCancelReads(int count) {
        failingCancelReads = count;
    }

    private void checkReachable() {
        if (unreachable) {
            throw new TransportException("in-memory transport is unreachable (test hook)");
        }
    }

    @Override
    public synchronized void declare(QueueName queue) {
        checkReachable();
        queue(queue);
    }

    @Override
    public synchronized void publish(Job job) {
        checkReachable();
        queue(job.queue()).publish(job, clock.instant());
        notifyAll();
    }

    @Override
    public synchronized JobId publishUnique(Job job) {
        checkReachable();
        Uniqueness unique = Uniqueness.carriedBy(job)
                .orElseThrow(() -> new InvalidValueException("job " + job.id() + " carries no uniqueness key"));
        JobId holder = queue(job.queue()).publishUnique(job, unique, clock.instant());
        notifyAll();
        return holder;
    }

    @Override
    public synchronized void publishAll(List<Job> jobs) {
        checkReachable();
        jobs.forEach(this::publish);
    }

    @Override
    public synchronized void deadLetterUnpublished(DeadLetter letter, String origin) {
        checkReachable();
        if (failingUnpublishedDeadLetters > 0) {
            failingUnpublishedDeadLetters--;
            throw new TransportException("server unreachable (test hook)");
        }
        queue(letter.queue()).deadLetterUnpublished(letter, origin, clock.instant());
    }

    @Override
    public synchronized Lease lease(QueueName queue, ConsumerName consumer, int max, Duration block) {
        checkReachable();
        if (failingLeases > 0) {
            failingLeases--;
            throw new TransportException("server unreachable (test hook)");
        }
        leases++;
        InMemoryQueue source = queue(queue);
        long deadline = System.nanoTime() + block.toNanos();
        source.seen(consumer, clock.instant());
        while (!source.hasUndelivered()) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return Lease.empty();
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, remaining);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Lease.empty();
            }
        }
        List<Delivery> leased = source.leaseNew(consumer, max, clock.instant());
        largestLease = Math.max(largestLease, leased.size());
        if (failingCancelReads > 0) { // as over a network: the read went through, its cancels did not
            failingCancelReads--;
            throw new TransportException("reading the cancels failed (test hook)");
        }
        Map<JobId, Instant> cancelled = cancels.getOrDefault(queue, Map.of());
        return new Lease(leased, Delivery.jobIdsOf(leased).stream()
                .filter(cancelled::containsKey)
                .collect(Collectors.toUnmodifiableSet()));
    }

    @Override
    public synchronized List<Delivery> leaseOwnPending(QueueName queue, ConsumerName consumer, int max) {
        checkReachable();
        return queue(queue).leaseOwnPending(consumer, max, clock.instant());
    }

    @Override
    public synchronized OptionalLong isolate(Delivery.Leased delivery, ConsumerName consumer) {
        checkReachable();
        return queue(delivery.queue()).isolate(delivery.id(), consumer);
    }

    @Override
    public void acknowledge(QueueName queue, Collection<DeliveryId> ids) {
        try {
            if (!ids.isEmpty()) { // a lease with nothing in front calls this too: it must not wait
                directAcknowledgements.await(1, TimeUnit.MINUTES); // outside the monitor: leases go on meanwhile
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        acknowledgeNow(queue, ids);
    }

    private synchronized void acknowledgeNow(QueueName queue, Collection<DeliveryId> ids) {
        checkReachable();
        queue(queue).acknowledge(ids, clock.instant());
    }

    /** Acknowledges, then leases, as every transport may; counts the ids for {@link #acknowledgedInFrontOfLeases}. */
    @Override
    public AcknowledgedLease acknowledgeAndLease(QueueName queue, Collection<DeliveryId> ids, ConsumerName consumer,
                                                 int max) {
        checkReachable();
        acknowledgedInFrontOfLeases.addAndGet(ids.size());
        if (!ids.isEmpty()) {
            directAcknowledgements.countDown();
        }
        return JobLeases.super.acknowledgeAndLease(queue, ids, consumer, max);
    }

    /** How many ids went in front of a lease ({@link #acknowledgeAndLease}) rather than on their own. */
    public long acknowledgedInFrontOfLeases() {
        return acknowledgedInFrontOfLeases.get();
    }

    /** The most new entries one lease brought. */
    public synchronized int largestLease() {
        return largestLease;
    }

    /** Leases begun since the last reclaim that took an entry over. */
    public synchronized long leasesSinceLastReclaim() {
        return leases - leasesAtLastReclaim;
    }

    @Override
    public synchronized void retryLater(Delivery delivery, Job retried) {
        checkReachable();
        queue(delivery.queue()).retryLater(delivery.id(), retried, retried.notBefore().orElse(clock.instant()));
    }

    @Override
    public synchronized void deadLetter(Delivery delivery, DeadLetter letter) {
        checkReachable();
        queue(delivery.queue()).deadLetter(delivery.id(), letter, clock.instant());
    }

    @Override
    public synchronized Set<QueueName> paused(Collection<QueueName> names) {
        checkReachable();
        return names.stream().filter(name -> queue(name).isPaused()).collect(Collectors.toUnmodifiableSet());
    }

    @Override
    public synchronized Set<JobId> cancelled(QueueName queue, Collection<JobId> jobs) {
        checkReachable();
        if (failingCancelReads > 0) {
            failingCancelReads--;
            throw new TransportException("reading the cancels failed (test hook)");
        }
        Map<JobId, Instant> cancelled = cancels.getOrDefault(queue, Map.of());
        return jobs.stream().filter(cancelled::containsKey).collect(Collectors.toUnmodifiableSet());
    }

    @Override
    public synchronized Set<DeliveryId> extendLeases(QueueName queue, ConsumerName consumer,
                                                     Collection<DeliveryId> ids) {
        checkReachable();
        return queue(queue).extendLeases(consumer, ids, clock.instant());
    }

    @Override
    public synchronized Reclaimed reclaimAbandoned(QueueName queue, ConsumerName consumer, Duration minIdle,
                                                   int max) {
        checkReachable();
        Reclaimed reclaimed = queue(queue).reclaimAbandoned(consumer, minIdle, max, clock.instant());
        if (!reclaimed.deliveries().isEmpty()) {
            leasesAtLastReclaim = leases;
        }
        return reclaimed;
    }

    @Override
    public synchronized int promoteDue(QueueName queue, Instant now, int max) {
        checkReachable();
        int moved = queue(queue).promoteDue(now, max, clock.instant());
        if (moved > 0) {
            notifyAll();
        }
        return moved;
    }

    /** When the earliest job in {@code queue}'s delayed set (a retry, a scheduled job) is due; empty when none. */
    public synchronized Optional<Instant> nextDue(QueueName queue) {
        return queue(queue).nextDue();
    }

    @Override
    public synchronized TrimOutcome trim(QueueName queue, Retention retention, Instant now) {
        checkReachable();
        Instant cutoff = now.minus(retention.maxAge());
        cancels.getOrDefault(queue, new HashMap<>()).values().removeIf(at -> at.isBefore(cutoff));
        return queue(queue).trim(retention, now);
    }

    @Override
    public synchronized List<ConsumerName> removeIdleConsumers(QueueName queue, Duration idle) {
        checkReachable();
        return queue(queue).removeIdleConsumers(idle, clock.instant());
    }

    @Override
    public synchronized ConsumerName claimConsumer(ConsumerName wanted) {
        checkReachable();
        ConsumerName name = wanted;
        for (int n = 2; claimed.contains(name); n++) {
            name = wanted.numbered(n);
        }
        claimed.add(name);
        return name;
    }

    @Override
    public synchronized void releaseConsumer(ConsumerName name) {
        checkReachable();
        claimed.remove(name);
    }

    @Override
    public synchronized List<ConsumerName> removeStaleConsumers(QueueName queue, ConsumerName name) {
        checkReachable();
        return queue(queue).removeConsumers(consumer -> consumer.isRunOf(name) && !claimed.contains(consumer));
    }

    @Override
    public synchronized QueueStats stats(QueueName queue) {
        checkReachable();
        if (damaged.containsKey(queue)) {
            throw new TransportException(damaged.get(queue));
        }
        return queue(queue).stats(clock.instant());
    }

    @Override
    public synchronized Map<QueueName, QueueTotals> totals(Collection<QueueName> queues) {
        checkReachable();
        return queues.stream().distinct().collect(Collectors.toMap(name -> name, name -> queue(name).totals(),
                (a, b) -> a, LinkedHashMap::new));
    }

    @Override
    public synchronized Optional<JobSighting> find(QueueName queue, JobId id) {
        checkReachable();
        return queue(queue).find(id, clock.instant());
    }

    @Override
    public synchronized QueueListing queues() {
        checkReachable();
        return new QueueListing(queues.keySet().stream().filter(queue -> !damaged.containsKey(queue))
                .sorted(Comparator.comparing(QueueName::value)).toList(), damaged);
    }

    /**
     * Test hook: the queue's stream holds something no queue can be read from, as a stray key in Redis: the queue is
     * listed as damaged and reading its numbers fails.
     */
    public synchronized void damageStream(QueueName queue) {
        queue(queue);
        damaged.put(queue, "the stream of " + queue + " holds something else (test hook)");
    }

    /** Queues in memory have one partition. */
    @Override
    public List<PartitionStats> partitionStats(QueueName queue) {
        checkReachable();
        return List.of();
    }

    @Override
    public synchronized List<JobSighting.Delayed> delayed(QueueName queue, int limit) {
        checkReachable();
        return queue(queue).delayed(limit);
    }

    @Override
    public synchronized List<StoredDeadLetter> deadLetters(QueueName queue, Optional<DeadLetterId> after, int limit) {
        checkReachable();
        return queue(queue).deadLetters(after, limit);
    }

    @Override
    public synchronized Optional<StoredDeadLetter> deadLetter(QueueName queue, DeadLetterId id) {
        checkReachable();
        return queue(queue).deadLetter(id);
    }

    @Override
    public synchronized int redrive(QueueName queue, DeadLetterSelection selection) {
        checkReachable();
        int moved = queue(queue).redrive(selection, clock.instant());
        if (moved > 0) {
            notifyAll();
        }
        return moved;
    }

    @Override
    public synchronized int purgeDeadLetters(QueueName queue, DeadLetterSelection selection) {
        checkReachable();
        return queue(queue).purgeDeadLetters(selection);
    }

    @Override
    public synchronized void pause(QueueName queue) {
        checkReachable();
        queue(queue).paused(true);
    }

    @Override
    public synchronized void resume(QueueName queue) {
        checkReachable();
        queue(queue).paused(false);
    }

    @Override
    public synchronized boolean cancel(QueueName queue, JobId id, Instant at) {
        checkReachable();
        return cancels.computeIfAbsent(queue, name -> new HashMap<>()).putIfAbsent(id, at) == null;
    }

    @Override
    public synchronized boolean makeDue(QueueName queue, JobId id, Instant now) {
        checkReachable();
        return queue(queue).makeDue(id, now);
    }

    @Override
    public synchronized boolean removeDelayed(QueueName queue, JobId id) {
        checkReachable();
        return queue(queue).removeDelayed(id);
    }

    private InMemoryQueue queue(QueueName queue) {
        return queues.computeIfAbsent(queue, name -> new InMemoryQueue(name, wire));
    }
}
