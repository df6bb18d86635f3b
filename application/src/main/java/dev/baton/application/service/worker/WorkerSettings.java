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
 * How a worker paces itself, one record per room of the worker; each record checks its own rules. Times measured
 * against jobs and entries (lease, job timeout's deadline) follow the injected clock; the loop intervals are real
 * waiting. A changed room replaces the default one: {@code WorkerSettings.DEFAULTS.with(Leasing.of(lease))}.
 *
 * @param leasing      how long a job stays leased, and the loops that keep and take over leases
 * @param retries      how long one attempt may run and what follows a failed one
 * @param admission    which deliveries never run: poison, and jobs no handler of the worker takes
 * @param polling      how the worker looks for jobs to run
 * @param housekeeping what is trimmed from the streams and their consumer groups, and how often
 * @param stopping     how long running jobs may go on once they are asked to stop
 * @param dispatching  what runs the jobs and how many commit in one ledger transaction
 */
public record WorkerSettings(Leasing leasing, Retries retries, Admission admission, Polling polling,
                             Housekeeping housekeeping, Stopping stopping, Dispatching dispatching) {
    /** The most jobs one ledger transaction may hold. */
    public static final int MAX_BATCH_COMMIT = 1_000;
    /**
     * Batched, the fewest transactions that commit side by side (unless the concurrency is lower): one committing
     * while the others run their jobs keeps PostgreSQL busy (docs/BENCHMARKS.md, "Batched commits").
     */
    public static final int MIN_BATCH_TRANSACTIONS = 4;

    public static final WorkerSettings DEFAULTS = new WorkerSettings(Leasing.DEFAULT, Retries.DEFAULT,
            Admission.DEFAULT, Polling.DEFAULT, Housekeeping.DEFAULT, Stopping.DEFAULT, Dispatching.DEFAULT);

    public WorkerSettings {
        Objects.requireNonNull(leasing, "leasing");
        Objects.requireNonNull(retries, "retries");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(polling, "polling");
        Objects.requireNonNull(housekeeping, "housekeeping");
        Objects.requireNonNull(stopping, "stopping");
        Objects.requireNonNull(dispatching, "dispatching");
    }

    /** These settings with another leasing. */
    public WorkerSettings with(Leasing room) {
        return new WorkerSettings(room, retries, admission, polling, housekeeping, stopping, dispatching);
    }

    /** These settings with other retries. */
    public WorkerSettings with(Retries room) {
        return new WorkerSettings(leasing, room, admission, polling, housekeeping, stopping, dispatching);
    }

    /** These settings with another admission. */
    public WorkerSettings with(Admission room) {
        return new WorkerSettings(leasing, retries, room, polling, housekeeping, stopping, dispatching);
    }

    /** These settings with other polling. */
    public WorkerSettings with(Polling room) {
        return new WorkerSettings(leasing, retries, admission, room, housekeeping, stopping, dispatching);
    }

    /** These settings with other housekeeping. */
    public WorkerSettings with(Housekeeping room) {
        return new WorkerSettings(leasing, retries, admission, polling, room, stopping, dispatching);
    }

    /** These settings with other stopping graces. */
    public WorkerSettings with(Stopping room) {
        return new WorkerSettings(leasing, retries, admission, polling, housekeeping, room, dispatching);
    }

    /** These settings with other dispatching. */
    public WorkerSettings with(Dispatching room) {
        return new WorkerSettings(leasing, retries, admission, polling, housekeeping, stopping, room);
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

    private static void positive(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative() || duration.isZero()) {
            throw new InvalidValueException(name + " must be positive, got " + duration);
        }
    }

    private static void notNegative(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative()) {
            throw new InvalidValueException(name + " must not be negative, got " + duration);
        }
    }

    /**
     * Leases: read by the lease extension loop and by recovery. The lease is set one way, {@link #of}; the intervals
     * it derives can then be overridden by name.
     *
     * @param lease            how long a job may stay silent (no lease extension) before another consumer may
     *                         reclaim it; also the idle time after which this worker reclaims others' entries
     * @param extendInterval   how often the leases of running jobs are extended; at most half the lease
     * @param recoveryInterval how often entries abandoned by silent consumers are reclaimed
     */
    public record Leasing(Duration lease, Duration extendInterval, Duration recoveryInterval) {
        public static final Leasing DEFAULT = new Leasing(Duration.ofSeconds(30), Duration.ofSeconds(10),
                Duration.ofSeconds(15));

        public Leasing {
            positive(lease, "lease");
            positive(extendInterval, "extend interval");
            positive(recoveryInterval, "recovery interval");
            // two extensions must fit into one lease, or a slow round trip lets another consumer steal a running job
            if (extendInterval.multipliedBy(2).compareTo(lease) > 0) {
                throw new InvalidValueException("extend interval " + extendInterval + " must be at most half the lease "
                        + lease);
            }
        }

        /**
         * A lease with its intervals: extension at a third of it, and recovery at least once per lease, so that a
         * dead worker's jobs are taken over within about two leases however short.
         */
        public static Leasing of(Duration lease) {
            Objects.requireNonNull(lease, "lease");
            Duration recovery = DEFAULT.recoveryInterval.compareTo(lease) > 0 ? lease : DEFAULT.recoveryInterval;
            return new Leasing(lease, lease.dividedBy(3), recovery);
        }

        /** The same lease, its running jobs' leases extended every {@code interval}. */
        public Leasing withExtendInterval(Duration interval) {
            return new Leasing(lease, interval, recoveryInterval);
        }

        /** The same lease, abandoned entries reclaimed every {@code interval}. */
        public Leasing withRecoveryInterval(Duration interval) {
            return new Leasing(lease, extendInterval, interval);
        }
    }

    /**
     * Attempts and what follows a failed one: read by the attempt executor, the deadline sweep and the finisher.
     *
     * @param retryPolicy attempts and backoff for failed jobs
     * @param jobTimeout  the longest one attempt may run; then it is interrupted and counts as a retryable failure
     */
    public record Retries(RetryPolicy retryPolicy, Duration jobTimeout) {
        public static final Retries DEFAULT = new Retries(RetryPolicy.DEFAULT, Duration.ofSeconds(60));

        public Retries {
            Objects.requireNonNull(retryPolicy, "retry policy");
            positive(jobTimeout, "job timeout");
        }

        /** The same job timeout with another retry policy. */
        public Retries withRetryPolicy(RetryPolicy policy) {
            return new Retries(policy, jobTimeout);
        }

        /** The same retry policy with another job timeout. */
        public Retries withJobTimeout(Duration timeout) {
            return new Retries(retryPolicy, timeout);
        }
    }

    /**
     * Deliveries that never run: read by the suspects (poison) and the triage (no handler) before a delivery runs.
     *
     * @param deliveryLimit  isolated deliveries of one entry (a suspect run alone in its worker) without finishing
     *                       after which it is dead-lettered as POISON
     * @param noHandlerGrace how long a job that no handler of the worker takes waits for a worker that has one before
     *                       it is dead-lettered as NO_HANDLER ({@link NoHandlerPolicy})
     */
    public record Admission(DeliveryLimit deliveryLimit, Duration noHandlerGrace) {
        public static final Admission DEFAULT = new Admission(DeliveryLimit.DEFAULT, NoHandlerPolicy.DEFAULT.grace());

        public Admission {
            Objects.requireNonNull(deliveryLimit, "delivery limit");
            new NoHandlerPolicy(noHandlerGrace); // refused here if negative
        }

        /** The same no-handler grace with another delivery limit. */
        public Admission withDeliveryLimit(DeliveryLimit limit) {
            return new Admission(limit, noHandlerGrace);
        }

        /** The same delivery limit with another no-handler grace. */
        public Admission withNoHandlerGrace(Duration grace) {
            return new Admission(deliveryLimit, grace);
        }

        /** What becomes of a job that no handler of the worker takes. */
        public NoHandlerPolicy noHandlerPolicy() {
            return new NoHandlerPolicy(noHandlerGrace);
        }
    }

    /**
     * Looking for jobs: read by the fetcher and the promotion loop.
     *
     * @param block           how long one blocking read waits for new jobs (split over the queues of one worker)
     * @param promoteInterval how often due jobs move from the delayed set into the stream
     */
    public record Polling(Duration block, Duration promoteInterval) {
        public static final Polling DEFAULT = new Polling(Duration.ofSeconds(1), Duration.ofMillis(250));

        public Polling {
            positive(block, "block");
            positive(promoteInterval, "promote interval");
        }

        /** The same promotion with another blocking read. */
        public Polling withBlock(Duration wait) {
            return new Polling(wait, promoteInterval);
        }

        /** The same blocking read, due jobs promoted every {@code interval}. */
        public Polling withPromoteInterval(Duration interval) {
            return new Polling(block, interval);
        }
    }

    /**
     * Trimming the streams and their consumer groups: read by the housekeeping loop.
     *
     * @param trimInterval        how often the stream is trimmed and idle consumers are removed
     * @param retention           how long acknowledged history stays in the stream
     * @param consumerIdleRemoval consumers idle this long and owning nothing are removed from the group
     */
    public record Housekeeping(Duration trimInterval, Retention retention, Duration consumerIdleRemoval) {
        public static final Housekeeping DEFAULT = new Housekeeping(Duration.ofMinutes(1), Retention.DEFAULT,
                Duration.ofHours(1));

        public Housekeeping {
            positive(trimInterval, "trim interval");
            Objects.requireNonNull(retention, "retention");
            positive(consumerIdleRemoval, "consumer idle removal");
        }

        /** The same housekeeping, keeping acknowledged history for another {@code kept}. */
        public Housekeeping withRetention(Retention kept) {
            return new Housekeeping(trimInterval, kept, consumerIdleRemoval);
        }

        /** The same housekeeping, removing consumers idle for {@code idle}. */
        public Housekeeping withConsumerIdleRemoval(Duration idle) {
            return new Housekeeping(trimInterval, retention, idle);
        }
    }

    /**
     * Running jobs asked to stop: read by the worker's {@code close()} and by the cancel watch.
     *
     * @param grace       how long {@code close()} waits for running jobs before abandoning them
     * @param cancelGrace how long a running job's handler may go on after the worker saw its cancel
     *                    ({@code JobContext.cancelled()} turns true within a second) before it is interrupted
     */
    public record Stopping(Duration grace, Duration cancelGrace) {
        public static final Stopping DEFAULT = new Stopping(Duration.ofSeconds(30), Duration.ofSeconds(10));

        public Stopping {
            notNegative(grace, "grace");
            notNegative(cancelGrace, "cancel grace");
        }

        /** The same cancel grace with another grace at {@code close()}. */
        public Stopping withGrace(Duration atClose) {
            return new Stopping(atClose, cancelGrace);
        }

        /** The same grace at {@code close()} with another cancel grace. */
        public Stopping withCancelGrace(Duration afterCancel) {
            return new Stopping(grace, afterCancel);
        }
    }

    /**
     * Running leased jobs: read by the dispatcher, the lease-ahead and the worker's threads.
     *
     * @param batchCommit up to this many leased jobs run one after the other on one thread and commit in one ledger
     *                    transaction; a batch is the jobs ready when a transaction starts, never waited for, and
     *                    {@link #transactionsAtOnce} batches commit side by side. They share one deadline, the job
     *                    timeout from the start of the batch. 1 (the default) commits every job on its own
     * @param jobThreads  what runs the jobs: platform or virtual threads ({@link JobThreads#AUTO} by default, see
     *                    {@link #runsJobsOn()}); checked against the running JVM here, so a choice it cannot honour
     *                    fails at once
     */
    public record Dispatching(int batchCommit, JobThreads jobThreads) {
        public static final Dispatching DEFAULT = new Dispatching(1, JobThreads.AUTO);

        public Dispatching {
            if (batchCommit < 1 || batchCommit > MAX_BATCH_COMMIT) {
                throw new InvalidValueException("batch commit must be 1.." + MAX_BATCH_COMMIT + ", got "
                        + batchCommit);
            }
            Objects.requireNonNull(jobThreads, "job threads").resolve(batchCommit); // refused here if it cannot run
        }

        /** The same job threads, up to {@code jobs} committing in one transaction. */
        public Dispatching withBatchCommit(int jobs) {
            return new Dispatching(jobs, jobThreads);
        }

        /** The same batch commit, run on {@code threads}. */
        public Dispatching withJobThreads(JobThreads threads) {
            return new Dispatching(batchCommit, threads);
        }

        /** What runs the jobs on this JVM: {@link JobThreads#PLATFORM} or {@link JobThreads#VIRTUAL}. */
        public JobThreads runsJobsOn() {
            return jobThreads.resolve(batchCommit);
        }
    }
}
