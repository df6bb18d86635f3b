package dev.baton.application.service;

import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobOutbox;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.TransportException;
import dev.baton.application.port.out.TransportMemory;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.PayloadLimit;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the jobs that producers committed to the outbox: claims a batch (a short transaction of its own), publishes
 * it pipelined to the transport with no transaction open, then marks it published in the statement that claims the
 * next batch (one round trip per batch; it waits for new rows only once a claim found none). A relay that dies before
 * the mark leaves its claim to expire; the next relay publishes the batch again, and the ledger acknowledges the
 * duplicates. Any number of relays run side by side. A row that cannot become a job, or that the transport refuses,
 * is dead-lettered MALFORMED with its reason ({@link OutboxRefusals}); the relay goes on.
 * After the transport lost data ({@link TransportMemory}), it publishes again every job without a terminal outcome;
 * a thread of its own ({@link OutboxHousekeeping}) looks for a loss, and forgets rows whose jobs ended, once per
 * {@link Settings#pollInterval}, so that publishing never waits behind either.
 * While its claims find rows it is marked claiming ({@link JobOutbox#keepClaiming}) and producers' commits do not wake
 * it; it unmarks itself with one last claim before it waits. Woken when producers commit, and every
 * {@link Settings#pollInterval} at the latest (docs/POSTGRES.md#the-wake-up).
 * A batch the transport did not take (Redis out of reach) is published again, once per poll interval, before anything
 * new is claimed, while its claim lasts: an outage holds up one batch, not a claim of every row, and the batch goes
 * out as soon as the transport answers rather than once its claim expired.
 *
 * <p>A job enqueued through the outbox counts as enqueued ({@link JobObserver#jobEnqueued}) when a relay publishes it:
 * a rolled-back producer's row never counts, and the producer's own enqueue call does not count it.
 */
public final class OutboxRelay implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);
    /**
     * How long a relay's mark as claiming lasts unless renewed: a relay that died claiming delays no commit's
     * wake-up longer, and the other relays poll every {@link Settings#pollInterval} meanwhile.
     */
    static final Duration CLAIMING_LEASE = Duration.ofSeconds(5);
    /**
     * How long closing waits for the relay's last statements: they take milliseconds, unless PostgreSQL is out of
     * reach, when what they would mark is published again anyway.
     */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    /**
     * The pauses of a claiming relay whose claims find nothing, before it stops claiming: under load the next rows
     * come soon, and each stop costs a wake-up per commit until the relay claims again, and holds the commits that
     * count on it until its last claim committed.
     */
    private static final List<Duration> LINGER = Stream.of(1, 2, 4, 8, 8, 8, 8, 8).map(Duration::ofMillis).toList();

    private final JobOutbox outbox;
    private final JobPublisher publisher;
    private final PayloadLimit payloadLimit;
    private final Clock clock;
    private final Settings settings;
    private final MaintenanceObserver observer;
    private final JobObserver jobObserver;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread thread;
    private final OutboxHousekeeping housekeeping;
    private final OutboxRefusals refusals;
    /** Rows this relay published and has yet to mark: marked in the statement that claims the next batch. */
    private List<Long> unmarked = List.of();
    /** A batch this relay claimed and the transport did not take: published before anything new is claimed. */
    private Optional<Claimed> untaken = Optional.empty();
    private final FailureStreak failures = new FailureStreak();
    /** This relay's name in the outbox's marks of claiming relays ({@link JobOutbox#keepClaiming}). */
    private final String name = "relay-" + UUID.randomUUID();
    /** Until when the relay's mark as claiming lasts, by its clock; null while it is not marked. */
    private Instant claimingUntil;
    /** Claims in a row that found nothing while the relay is claiming: the index of its next pause in LINGER. */
    private int emptyClaims;
    /**
     * Whether the relay's thread waits with everything it claimed marked: for commits ({@link JobOutbox#awaitNewRows}),
     * or for the transport's epoch before its first claim.
     */
    private volatile boolean waitingUnclaimed;

    /**
     * @param observer    hears what the relay publishes in all ({@link MaintenanceObserver#outboxPublished})
     * @param jobObserver hears each job it publishes as enqueued, tagged by its queue
     */
    public OutboxRelay(JobOutbox outbox, JobPublisher publisher, JobOutcomes outcomes, TransportMemory memory,
                       PayloadLimit payloadLimit, Clock clock, Settings settings, MaintenanceObserver observer,
                       JobObserver jobObserver) {
        this.outbox = Objects.requireNonNull(outbox, "outbox");
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        this.payloadLimit = Objects.requireNonNull(payloadLimit, "payload limit");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.observer = Objects.requireNonNull(observer, "observer");
        this.jobObserver = Objects.requireNonNull(jobObserver, "job observer");
        this.thread = new Thread(this::relayUntilClosed, "baton-outbox-relay");
        thread.setDaemon(true);
        this.housekeeping = new OutboxHousekeeping(outbox, Objects.requireNonNull(memory, "memory"), clock,
                settings.batchSize(), settings.pollInterval(), observer);
        this.refusals = new OutboxRefusals(outbox, publisher, Objects.requireNonNull(outcomes, "outcomes"), clock);
    }

    public OutboxRelay(JobOutbox outbox, JobPublisher publisher, JobOutcomes outcomes, TransportMemory memory,
                       PayloadLimit payloadLimit, Clock clock, Settings settings, MaintenanceObserver observer) {
        this(outbox, publisher, outcomes, memory, payloadLimit, clock, settings, observer, JobObserver.NONE);
    }

    public OutboxRelay(JobOutbox outbox, JobPublisher publisher, JobOutcomes outcomes, TransportMemory memory,
                       PayloadLimit payloadLimit, Clock clock, Settings settings) {
        this(outbox, publisher, outcomes, memory, payloadLimit, clock, settings, MaintenanceObserver.NONE);
    }

    /**
     * Republishes the outstanding jobs if the transport lost data since the last look, claims one batch, publishes it,
     * forgets rows whose jobs ended (the housekeeping's look), and marks the batch published: on the calling thread,
     * one step after the other.
     *
     * @return how many rows it claimed (published or marked MALFORMED)
     */
    public int runOnce() {
        housekeeping.republishIfLost();
        int claimed = relayBatch();
        housekeeping.forgetEnded();
        markUnmarked();
        return claimed;
    }

    /** Claims a batch (marking the one before it published) and publishes it; its mark waits for the next claim. */
    private int relayBatch() {
        Instant now = clock.instant();
        Optional<Claimed> again = untaken.filter(batch -> now.isBefore(batch.until()));
        untaken = Optional.empty();
        if (again.isPresent()) {
            publishClaimed(again.get());
            return again.get().rows().size();
        }
        Instant until = now.plus(settings.claimLease());
        List<JobOutbox.Entry> claimed = outbox.markPublishedAndClaim(unmarked, now, settings.batchSize(), now, until);
        unmarked = List.of();
        publishClaimed(claimed, until);
        return claimed.size();
    }

    /** Claimed rows to be published, and until when the claim keeps other relays off them. */
    private record Claimed(List<JobOutbox.Entry.Ready> rows, Instant until) {
    }

    /**
     * Marks the relay claiming while its claims find rows, so that producers' commits need not wake it (each wake-up
     * is a {@code NOTIFY} that PostgreSQL serializes with the other commits); renewed once half the lease is spent.
     */
    private void keepClaiming() {
        emptyClaims = 0;
        Instant now = clock.instant();
        if (claimingUntil == null || !now.isBefore(claimingUntil.minus(CLAIMING_LEASE.dividedBy(2)))) {
            outbox.keepClaiming(name, CLAIMING_LEASE);
            claimingUntil = now.plus(CLAIMING_LEASE);
        }
    }

    /**
     * Ends a busy spell before the relay waits: unmarks it claiming and claims once more, after the commits that
     * counted on it ended; up to {@code max} rows (0 on close). Nothing to do when the relay is not marked.
     *
     * @return how many rows it claimed
     */
    private int stopClaiming(int max) {
        if (claimingUntil == null) {
            return 0;
        }
        Instant now = clock.instant();
        Instant until = now.plus(settings.claimLease());
        List<JobOutbox.Entry> claimed = outbox.stopClaimingAndClaim(name, unmarked, now, max, now, until);
        unmarked = List.of();
        claimingUntil = null;
        publishClaimed(claimed, until);
        return claimed.size();
    }

    private void publishClaimed(List<JobOutbox.Entry> claimed, Instant until) {
        List<JobOutbox.Entry.Ready> ready = new ArrayList<>();
        for (JobOutbox.Entry entry : claimed) {
            if (entry instanceof JobOutbox.Entry.Malformed malformed) {
                refusals.refuse(malformed);
            } else if (entry instanceof JobOutbox.Entry.Ready row && !payloadLimit.admits(row.job().payload())) {
                refusals.refuse(row.position(), row.job(), "payload over the limit of " + payloadLimit.maxBytes()
                        + " bytes");
            } else if (entry instanceof JobOutbox.Entry.Ready row) {
                ready.add(row);
            }
        }
        if (!ready.isEmpty()) {
            publishClaimed(new Claimed(ready, until));
        }
    }

    /** @throws TransportException when the transport did not take the batch: it is published again first */
    private void publishClaimed(Claimed batch) {
        List<JobOutbox.Entry.Ready> published;
        try {
            published = publish(batch.rows());
        } catch (TransportException e) {
            untaken = Optional.of(batch);
            throw e;
        }
        unmarked = published.stream().map(JobOutbox.Entry.Ready::position).toList();
        observer.outboxPublished(published.size());
        published.forEach(row -> jobObserver.jobEnqueued(row.job()));
    }

    /**
     * Publishes the batch pipelined. When the transport refuses a job of it (before sending any), publishes them one
     * by one instead: the refused ones are marked MALFORMED, the others go out, so one bad row never holds up its
     * batch.
     *
     * @return the rows it published, to be marked published
     */
    private List<JobOutbox.Entry.Ready> publish(List<JobOutbox.Entry.Ready> rows) {
        try {
            publisher.publishAll(rows.stream().map(JobOutbox.Entry.Ready::job).toList());
            return rows;
        } catch (InvalidValueException refused) {
            LOG.debug("the transport refused a job of the batch, publishing one by one: {}", refused.getMessage());
        }
        List<JobOutbox.Entry.Ready> published = new ArrayList<>();
        for (JobOutbox.Entry.Ready row : rows) {
            try {
                publisher.publish(row.job());
                published.add(row);
            } catch (InvalidValueException refused) {
                refusals.refuse(row.position(), row.job(), refused.getMessage());
            }
        }
        return published;
    }

    private void markUnmarked() {
        if (!unmarked.isEmpty()) {
            outbox.markPublished(unmarked, clock.instant());
            unmarked = List.of();
        }
    }

    /** Relays on a thread of its own, and keeps house on another, until {@link #close}. */
    public OutboxRelay start() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("the outbox relay is started already");
        }
        housekeeping.start();
        thread.start();
        return this;
    }

    private void relayUntilClosed() {
        if (!awaitEpochRecorded()) { // see OutboxHousekeeping.epochRecorded
            return; // closed before anything was claimed: nothing to mark
        }
        while (closed.getCount() > 0) {
            try {
                // rows claimed mean more may be waiting: the next claim marks these before the relay waits, and
                // the relay waits only once it is no longer marked claiming (commits then wake it)
                if (relayBatch() > 0) {
                    keepClaiming();
                } else if (claimingUntil != null && emptyClaims < LINGER.size()) {
                    if (awaitClose(LINGER.get(emptyClaims++))) {
                        break;
                    }
                } else if (stopClaiming(settings.batchSize()) == 0) {
                    awaitNewRows();
                }
                int failed = failures.succeeded();
                if (failed > 0) {
                    LOG.info("relaying the outbox works again after {} failures", failed);
                }
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException e) {
                // the relay must outlive an outage of PostgreSQL or Redis
                LOG.atLevel(failures.failed()).log("relaying the outbox failed, retrying every {}: {}",
                        settings.pollInterval(), e.toString());
                if (awaitClose(settings.pollInterval())) {
                    break;
                }
            }
        }
        markOnClose();
    }

    /**
     * Marks the last batch, so that a relay closed between two claims leaves nothing to publish again, and unmarks the
     * relay claiming, so that commits wake the other relays at once.
     */
    private void markOnClose() {
        boolean interrupted = Thread.interrupted();
        try {
            stopClaiming(0);
            markUnmarked();
        } catch (RuntimeException e) {
            LOG.warn("marking the last batch published failed, it is published again once its claim expires: {}",
                    e.toString());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits, nothing claimed, until the housekeeping's first look recorded the epoch. @return false if closed first */
    private boolean awaitEpochRecorded() {
        waitingUnclaimed = true;
        try {
            while (closed.getCount() > 0) {
                if (housekeeping.awaitEpochRecorded(settings.pollInterval())) {
                    return true;
                }
            }
            return false;
        } catch (InterruptedException e) {
            return false;
        } finally {
            waitingUnclaimed = false;
        }
    }

    /** Waits for commits, with everything it claimed marked: closing need not wait for it meanwhile. */
    private void awaitNewRows() throws InterruptedException {
        waitingUnclaimed = true;
        try {
            outbox.awaitNewRows(settings.pollInterval());
        } finally {
            waitingUnclaimed = false;
        }
    }

    private boolean awaitClose(Duration timeout) {
        try {
            return closed.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /**
     * Stops relaying and keeping house, and returns once both threads ended (or {@link #CLOSE_WAIT} passed): whoever
     * closes the relay closes its outbox and transport next, which its last statements need. A batch being published
     * is published and marked, not interrupted, so closing publishes nothing twice. A relay waiting for new rows (or
     * for the transport's epoch) has nothing left to mark: it is interrupted, and not waited for (the outbox's wait
     * may not heed the interrupt before its poll interval ends).
     */
    @Override
    public void close() {
        closed.countDown();
        if (waitingUnclaimed) {
            thread.interrupt();
        }
        housekeeping.close();
        if (!waitingUnclaimed) {
            Threads.join(thread, CLOSE_WAIT, "its last batch is published again once its claim expires");
        }
    }

    /**
     * @param batchSize    rows claimed and published per round trip
     * @param claimLease   how long a claim keeps other relays off a batch: far longer than publishing it takes
     * @param pollInterval the longest the relay waits without a notification from a producer's commit
     */
    public record Settings(int batchSize, Duration claimLease, Duration pollInterval) {
        public static final Settings DEFAULTS = new Settings(500, Duration.ofSeconds(30), Duration.ofSeconds(1));

        public Settings {
            if (batchSize < 1) {
                throw new IllegalArgumentException("the relay's batch size must be positive, got " + batchSize);
            }
            Objects.requireNonNull(claimLease, "claim lease");
            Objects.requireNonNull(pollInterval, "poll interval");
            if (claimLease.isNegative() || claimLease.isZero() || pollInterval.isNegative() || pollInterval.isZero()) {
                throw new IllegalArgumentException("the relay's claim lease and poll interval must be positive");
            }
        }
    }
}
