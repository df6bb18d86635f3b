package dev.baton.application.service.worker;

import dev.baton.application.service.JobThreads;
import dev.baton.domain.DeliveryLimit;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.NoHandlerPolicy;
import dev.baton.domain.Retention;
import dev.baton.domain.RetryPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * How a worker paces itself. Times measured against jobs and entries (lease, job timeout's deadline) follow the
 * injected clock; the loop intervals are real waiting.
 *
 * @param lease               how long a job may stay silent (no lease extension) before another consumer may
 *                            reclaim it; also the idle time after which this worker reclaims others' entries
 * @param deliveryLimit       isolated deliveries of one entry (a suspect run alone in its worker) without finishing
 *                            after which it is dead-lettered as POISON
 * @param retryPolicy         attempts and backoff for failed jobs
 * @param jobTimeout          the longest one attempt may run; then it is interrupted and counts as a retryable
 *                            failure
 * @param block               how long one blocking read waits for new jobs (split over the queues of one worker)
 * @param promoteInterval     how often due jobs move from the delayed set into the stream
 * @param extendInterval      how often the leases of running jobs are extended; must be well below {@code lease}
 * @param recoveryInterval    how often entries abandoned by silent consumers are reclaimed
 * @param trimInterval        how often the stream is trimmed and idle consumers are removed
 * @param retention           how long acknowledged history stays in the stream
 * @param consumerIdleRemoval consumers idle this long and owning nothing are removed from the group
 * @param grace               how long {@code close()} waits for running jobs before abandoning them
 * @param batchCommit         up to this many leased jobs run one after the other on one thread and commit in one
 *                            ledger transaction; a batch is the jobs ready when a transaction starts, never waited
 *                            for, and {@link #transactionsAtOnce} batches commit side by side. They share one
 *                            deadline, {@code jobTimeout} from the start of the batch. 1 (the default) commits every
 *                            job on its own
 * @param jobThreads          what runs the jobs: platform or virtual threads ({@link JobThreads#AUTO} by default,
 *                            see {@link #runsJobsOn()}); checked against the running JVM here, so a choice it cannot
 *                            honour fails at once
 * @param cancelGrace         how long a running job's handler may go on after the worker saw its cancel
 *                            ({@code JobContext.cancelled()} turns true within a second) before it is interrupted
 * @param noHandlerGrace      how long a job that no handler of the worker takes waits for a worker that has one
 *                            before it is dead-lettered as NO_HANDLER ({@link NoHandlerPolicy})
 */
public record WorkerSettings(Duration lease, DeliveryLimit deliveryLimit, RetryPolicy retryPolicy, Duration jobTimeout,
                             Duration block, Duration promoteInterval, Duration extendInterval,
                             Duration recoveryInterval, Duration trimInterval, Retention retention,
                             Duration consumerIdleRemoval, Duration grace, int batchCommit,
                             JobThreads jobThreads, Duration cancelGrace, Duration noHandlerGrace) {
    /** The most jobs one ledger transaction may hold. */
    public static final int MAX_BATCH_COMMIT = 1_000;
    /**
     * Batched, the fewest transactions that commit side by side (unless the concurrency is lower): one committing
     * while the others run their jobs keeps PostgreSQL busy (docs/BENCHMARKS.md, "Batched commits").
     */
    public static final int MIN_BATCH_TRANSACTIONS = 4;

    public static final WorkerSettings DEFAULTS = new WorkerSettings(Duration.ofSeconds(30), DeliveryLimit.DEFAULT,
            RetryPolicy.DEFAULT, Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofMillis(250),
            Duration.ofSeconds(10), Duration.ofSeconds(15), Duration.ofMinutes(1), Retention.DEFAULT,
            Duration.ofHours(1), Duration.ofSeconds(30), 1, JobThreads.AUTO, Duration.ofSeconds(10),
            NoHandlerPolicy.DEFAULT.grace());

    public WorkerSettings {
        Objects.requireNonNull(deliveryLimit, "delivery limit");
        Objects.requireNonNull(retryPolicy, "retry policy");
        Objects.requireNonNull(retention, "retention");
        positive(lease, "lease");
        positive(jobTimeout, "job timeout");
        positive(block, "block");
        positive(promoteInterval, "promote interval");
        positive(extendInterval, "extend interval");
        positive(recoveryInterval, "recovery interval");
        positive(trimInterval, "trim interval");
        positive(consumerIdleRemoval, "consumer idle removal");
        Objects.requireNonNull(grace, "grace");
        if (grace.isNegative()) {
            throw new InvalidValueException("grace must not be negative, got " + grace);
        }
        Objects.requireNonNull(cancelGrace, "cancel grace");
        if (cancelGrace.isNegative()) {
            throw new InvalidValueException("cancel grace must not be negative, got " + cancelGrace);
        }
        new NoHandlerPolicy(noHandlerGrace); // refused here if negative
        if (batchCommit < 1 || batchCommit > MAX_BATCH_COMMIT) {
            throw new InvalidValueException("batch commit must be 1.." + MAX_BATCH_COMMIT + ", got " + batchCommit);
        }
        Objects.requireNonNull(jobThreads, "job threads").resolve(batchCommit); // refused here if it cannot run
        // two extensions must fit into one lease, or a slow round trip lets another consumer steal a running job
        if (extendInterval.multipliedBy(2).compareTo(lease) > 0) {
            throw new InvalidValueException("extend interval " + extendInterval + " must be at most half the lease "
                    + lease);
        }
    }

    private static void positive(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative() || duration.isZero()) {
            throw new InvalidValueException(name + " must be positive, got " + duration);
        }
    }

    /** A builder holding the {@link #DEFAULTS}: set what differs, then {@link Builder#build()} validates. */
    public static Builder builder() {
        return DEFAULTS.toBuilder();
    }

    /** A builder holding these settings. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * The same settings with a new lease; the extension interval follows at a third of it, and recovery runs at
     * least once per lease, so that a dead worker's jobs are taken over within about two leases however short.
     */
    public WorkerSettings withLease(Duration newLease) {
        Duration recovery = recoveryInterval.compareTo(newLease) > 0 ? newLease : recoveryInterval;
        return toBuilder().lease(newLease).extendInterval(newLease.dividedBy(3)).recoveryInterval(recovery).build();
    }

    public WorkerSettings withDeliveryLimit(DeliveryLimit limit) {
        return toBuilder().deliveryLimit(limit).build();
    }

    public WorkerSettings withRetryPolicy(RetryPolicy policy) {
        return toBuilder().retryPolicy(policy).build();
    }

    public WorkerSettings withJobTimeout(Duration timeout) {
        return toBuilder().jobTimeout(timeout).build();
    }

    /** The same settings with new loop timings: blocking read, promotion, lease extension and recovery. */
    public WorkerSettings withIntervals(Duration newBlock, Duration promote, Duration extend, Duration recovery) {
        return toBuilder().block(newBlock).promoteInterval(promote).extendInterval(extend).recoveryInterval(recovery)
                .build();
    }

    public WorkerSettings withHousekeeping(Duration trim, Retention newRetention, Duration idleRemoval) {
        return toBuilder().trimInterval(trim).retention(newRetention).consumerIdleRemoval(idleRemoval).build();
    }

    public WorkerSettings withGrace(Duration newGrace) {
        return toBuilder().grace(newGrace).build();
    }

    /** The same settings with a new grace between a running job's cancel and its interruption. */
    public WorkerSettings withCancelGrace(Duration newGrace) {
        return toBuilder().cancelGrace(newGrace).build();
    }

    /** The same settings with a new grace for jobs that no handler of the worker takes. */
    public WorkerSettings withNoHandlerGrace(Duration newGrace) {
        return toBuilder().noHandlerGrace(newGrace).build();
    }

    /** What becomes of a job that no handler of the worker takes. */
    public NoHandlerPolicy noHandlerPolicy() {
        return new NoHandlerPolicy(noHandlerGrace);
    }

    public WorkerSettings withBatchCommit(int jobs) {
        return toBuilder().batchCommit(jobs).build();
    }

    public WorkerSettings withJobThreads(JobThreads threads) {
        return toBuilder().jobThreads(threads).build();
    }

    /**
     * How many ledger transactions a worker of {@code concurrency} runs at once: one per job when every job commits on
     * its own; batched, enough for every running job to be in a full batch, and at least
     * {@link #MIN_BATCH_TRANSACTIONS}. The pool needs a connection for each (and one for lookups).
     */
    public static int transactionsAtOnce(int concurrency, int batchCommit) {
        if (batchCommit == 1) {
            return concurrency;
        }
        int filled = (concurrency + batchCommit - 1) / batchCommit;
        return Math.min(concurrency, Math.max(filled, MIN_BATCH_TRANSACTIONS));
    }

    /**
     * The most jobs one transaction of a worker of {@code concurrency} takes: {@code batchCommit}, but no more than
     * its share of the concurrency among the {@link #transactionsAtOnce} transactions. A batch that took every running
     * job would leave the other transactions nothing to commit while it runs its handlers one after the other
     * (docs/BENCHMARKS.md#batched-commits).
     */
    public static int jobsPerTransaction(int concurrency, int batchCommit) {
        int transactions = transactionsAtOnce(concurrency, batchCommit);
        return Math.min(batchCommit, (concurrency + transactions - 1) / transactions);
    }

    /** What runs the jobs on this JVM with these settings: {@link JobThreads#PLATFORM} or {@link JobThreads#VIRTUAL}. */
    public JobThreads runsJobsOn() {
        return jobThreads.resolve(batchCommit);
    }

    /** Settings field by field, each setter named like the setting; validated together by {@link #build()}. */
    public static final class Builder {
        private Duration lease;
        private DeliveryLimit deliveryLimit;
        private RetryPolicy retryPolicy;
        private Duration jobTimeout;
        private Duration block;
        private Duration promoteInterval;
        private Duration extendInterval;
        private Duration recoveryInterval;
        private Duration trimInterval;
        private Retention retention;
        private Duration consumerIdleRemoval;
        private Duration grace;
        private int batchCommit;
        private Duration cancelGrace;
        private JobThreads jobThreads;
        private Duration noHandlerGrace;

        private Builder(WorkerSettings from) {
            lease = from.lease;
            deliveryLimit = from.deliveryLimit;
            retryPolicy = from.retryPolicy;
            jobTimeout = from.jobTimeout;
            block = from.block;
            promoteInterval = from.promoteInterval;
            extendInterval = from.extendInterval;
            recoveryInterval = from.recoveryInterval;
            trimInterval = from.trimInterval;
            retention = from.retention;
            consumerIdleRemoval = from.consumerIdleRemoval;
            grace = from.grace;
            batchCommit = from.batchCommit;
            cancelGrace = from.cancelGrace;
            jobThreads = from.jobThreads;
            noHandlerGrace = from.noHandlerGrace;
        }

        /** Only the lease itself: unlike {@link WorkerSettings#withLease}, the intervals stay as they are. */
        public Builder lease(Duration value) {
            lease = value;
            return this;
        }

        public Builder deliveryLimit(DeliveryLimit value) {
            deliveryLimit = value;
            return this;
        }

        public Builder retryPolicy(RetryPolicy value) {
            retryPolicy = value;
            return this;
        }

        public Builder jobTimeout(Duration value) {
            jobTimeout = value;
            return this;
        }

        public Builder block(Duration value) {
            block = value;
            return this;
        }

        public Builder promoteInterval(Duration value) {
            promoteInterval = value;
            return this;
        }

        public Builder extendInterval(Duration value) {
            extendInterval = value;
            return this;
        }

        public Builder recoveryInterval(Duration value) {
            recoveryInterval = value;
            return this;
        }

        public Builder trimInterval(Duration value) {
            trimInterval = value;
            return this;
        }

        public Builder retention(Retention value) {
            retention = value;
            return this;
        }

        public Builder consumerIdleRemoval(Duration value) {
            consumerIdleRemoval = value;
            return this;
        }

        public Builder grace(Duration value) {
            grace = value;
            return this;
        }

        public Builder cancelGrace(Duration value) {
            cancelGrace = value;
            return this;
        }

        public Builder noHandlerGrace(Duration value) {
            noHandlerGrace = value;
            return this;
        }

        public Builder batchCommit(int value) {
            batchCommit = value;
            return this;
        }

        public Builder jobThreads(JobThreads value) {
            jobThreads = value;
            return this;
        }

        public WorkerSettings build() {
            return new WorkerSettings(lease, deliveryLimit, retryPolicy, jobTimeout, block, promoteInterval,
                    extendInterval, recoveryInterval, trimInterval, retention, consumerIdleRemoval, grace,
                    batchCommit, jobThreads, cancelGrace, noHandlerGrace);
        }
    }
}
