package dev.baton.application.testing;

import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerTransaction;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.Completion;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterRecord;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.OutcomeQuery;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * An {@link ExecutionLedger} in memory that behaves like the PostgreSQL one: jobs are keyed by queue and job id (the
 * same id on two queues is two jobs). For a redelivery, {@code execute} claims the job like
 * {@code INSERT ... ON CONFLICT DO NOTHING} on a primary key, so a second caller on the same job waits
 * until the first commits (then it sees {@link LedgerOutcome.AlreadyCompleted}) or rolls back (then it runs the
 * effect itself); for a first delivery, it runs the effect first and inserts the completion with the commit.
 * Handlers write to an {@link InMemoryEffects} table that commits with the completion, or not at all.
 *
 * <p>It is also the ledger's record of dead letters ({@link JobOutcomes}), one state per job like the PostgreSQL
 * {@code job_outcomes} table: a dead or purged job does not run ({@link LedgerOutcome.AlreadyDead}), a replayed one
 * runs and completes.
 *
 * <p>Test hooks simulate an unreachable ledger and a connection lost right after a commit.
 */
public final class InMemoryExecutionLedger implements ExecutionLedger, JobOutcomes {
    private final Clock clock;
    private final Object lock = new Object();
    private final Map<Key, Completion> completions = new HashMap<>();
    /**
     * The jobs that went to the dead letters (dead, replayed, purged) or were cancelled, by key; never a completed one.
     */
    private final Map<Key, JobOutcome> deadLettered = new HashMap<>();
    private final Set<Key> claimed = new HashSet<>();
    private final Map<String, String> effects = new HashMap<>();
    private final AtomicBoolean unavailable = new AtomicBoolean();
    private final AtomicBoolean crashAfterNextCommit = new AtomicBoolean();

    public InMemoryExecutionLedger(Clock clock) {
        this.clock = clock;
    }

    /**
     * Test hook: while {@code down}, every {@code execute} reports the ledger unavailable, and every lookup and record
     * of an outcome throws {@link LedgerUnavailableException}.
     */
    public void setUnavailable(boolean down) {
        unavailable.set(down);
    }

    /**
     * Test hook: the next commit succeeds but its caller gets {@link LedgerUnavailableException}, as when the
     * connection drops after {@code COMMIT} was sent (the caller cannot know the outcome, so it must not ack).
     */
    public void crashAfterNextCommit() {
        crashAfterNextCommit.set(true);
    }

    /** The committed effects table. */
    public Map<String, String> committedEffects() {
        synchronized (lock) {
            return Map.copyOf(effects);
        }
    }

    @Override
    public LedgerOutcome execute(Execution execution, Effect effect) {
        if (unavailable.get()) {
            return new LedgerOutcome.Unknown(new LedgerUnavailableException("in-memory ledger is down (test hook)",
                    null));
        }
        try {
            return execution.isRedelivery() ? claimFirst(execution, effect) : completeLast(execution, effect);
        } catch (EffectFailed e) {
            return new LedgerOutcome.EffectFailed(e.getCause());
        } catch (LedgerUnavailableException e) {
            return new LedgerOutcome.Unknown(e);
        }
    }

    /** A redelivery: claims the job first, waiting for a claim in flight, so a completed job's effect never runs. */
    private LedgerOutcome claimFirst(Execution execution, Effect effect) {
        Key key = Key.of(execution.job());
        InMemoryEffects transaction;
        synchronized (lock) {
            awaitNoClaim(key);
            Optional<LedgerOutcome> ended = endedBefore(key);
            if (ended.isPresent()) {
                return ended.get();
            }
            claimed.add(key);
            transaction = new InMemoryEffects(effects);
        }
        Optional<String> result;
        boolean ran = false;
        try {
            result = effect.run(new Transaction(transaction));
            ran = true;
        } catch (Exception e) {
            throw failure(key, transaction, e);
        } finally {
            if (!ran) {
                release(key);
            }
        }
        if (transaction.connectionLost()) {
            release(key);
            throw failure(key, transaction, null);
        }
        synchronized (lock) {
            claimed.remove(key);
            lock.notifyAll();
            return commit(execution, transaction, result);
        }
    }

    /**
     * A first delivery, like the PostgreSQL ledger's: the effect runs unclaimed and the completion is inserted with
     * the commit, waiting for a claim in flight; a job found completed then (or after its effect failed) is reported
     * completed and the effect's writes are thrown away.
     */
    private LedgerOutcome completeLast(Execution execution, Effect effect) {
        Key key = Key.of(execution.job());
        InMemoryEffects transaction;
        synchronized (lock) {
            transaction = new InMemoryEffects(effects);
        }
        Optional<String> result;
        try {
            result = effect.run(new Transaction(transaction));
        } catch (Exception e) {
            if (transaction.connectionLost()) {
                throw failure(key, transaction, e);
            }
            synchronized (lock) {
                return endedBefore(key).orElseThrow(() -> new EffectFailed(e));
            }
        }
        if (transaction.connectionLost()) {
            throw failure(key, transaction, null);
        }
        synchronized (lock) {
            awaitNoClaim(key);
            Optional<LedgerOutcome> ended = endedBefore(key);
            if (ended.isPresent()) {
                return ended.get();
            }
            return commit(execution, transaction, result);
        }
    }

    /** How the job ended before, if it did and may not run again (a replayed one may); the caller holds the lock. */
    private Optional<LedgerOutcome> endedBefore(Key key) {
        Completion completion = completions.get(key);
        if (completion != null) {
            return Optional.of(new LedgerOutcome.AlreadyCompleted(completion));
        }
        return Optional.ofNullable(deadLettered.get(key))
                .filter(outcome -> !(outcome instanceof JobOutcome.Replayed))
                .map(outcome -> outcome instanceof JobOutcome.Cancelled cancelled
                        ? new LedgerOutcome.AlreadyCancelled(cancelled) : new LedgerOutcome.AlreadyDead(outcome));
    }

    /**
     * What an effect's failure means: the job failed, or, with the connection lost, the ledger is unavailable; unless
     * the thread's interruption closed the connection (as on a virtual thread), which is the attempt's failure.
     */
    private static RuntimeException failure(Key key, InMemoryEffects transaction, Exception cause) {
        if (transaction.connectionLost() && !interrupted(cause)) {
            return new LedgerUnavailableException("lost the ledger connection while job " + key
                    + " ran; nothing was committed (test hook)", cause);
        }
        return new EffectFailed(cause);
    }

    private static boolean interrupted(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }

    /** Commits the effect's writes with the job's completion; the caller holds {@link #lock}. */
    private LedgerOutcome commit(Execution execution, InMemoryEffects transaction, Optional<String> result) {
        Completion completion = new Completion(execution.job().id(), execution.job().queue(), execution.job().type(),
                execution.job().currentAttempt(), execution.consumer(), execution.deliveryId().value(),
                result, clock.instant());
        effects.putAll(transaction.written());
        Key key = Key.of(execution.job());
        completions.put(key, completion);
        deadLettered.remove(key);
        if (crashAfterNextCommit.compareAndSet(true, false)) {
            throw new LedgerUnavailableException("connection lost after commit (test hook)", null);
        }
        return new LedgerOutcome.Committed(completion);
    }

    /** Waits, holding {@link #lock}, until no other caller has claimed {@code key}. */
    private void awaitNoClaim(Key key) {
        while (claimed.contains(key)) {
            try {
                lock.wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new EffectFailed(e);
            }
        }
    }

    private void release(Key key) {
        synchronized (lock) {
            claimed.remove(key);
            lock.notifyAll();
        }
    }

    @Override
    public Optional<Completion> find(QueueName queue, JobId id) {
        checkAvailable();
        synchronized (lock) {
            return Optional.ofNullable(completions.get(new Key(queue, id.value())));
        }
    }

    @Override
    public long countCompleted(QueueName queue) {
        synchronized (lock) {
            return completions.values().stream().filter(completion -> completion.queue().equals(queue)).count();
        }
    }

    @Override
    public long forgetCompletedBefore(Instant cutoff) {
        synchronized (lock) {
            long before = completions.size();
            completions.values().removeIf(completion -> completion.completedAt().isBefore(cutoff));
            long purgedBefore = deadLettered.size();
            deadLettered.values().removeIf(outcome -> outcome instanceof JobOutcome.Purged purged
                    && purged.purgedAt().isBefore(cutoff) || outcome instanceof JobOutcome.Cancelled cancelled
                    && cancelled.cancelledAt().isBefore(cutoff));
            return before - completions.size() + purgedBefore - deadLettered.size();
        }
    }

    @Override
    public JobOutcome recordDead(DeadLetterRecord record) {
        return record(new Key(record.queue(), record.key()), new JobOutcome.Dead(record));
    }

    @Override
    public JobOutcome recordCancelled(String key, QueueName queue, Instant at) {
        return record(new Key(queue, key), new JobOutcome.Cancelled(key, queue, at));
    }

    /** Records {@code ended} unless the job ended otherwise before (a replayed job ends anew). @return its outcome */
    private JobOutcome record(Key key, JobOutcome ended) {
        checkAvailable();
        synchronized (lock) {
            awaitNoClaim(key);
            Completion completion = completions.get(key);
            if (completion != null) {
                return new JobOutcome.Completed(completion);
            }
            JobOutcome before = deadLettered.get(key);
            if (before != null && !(before instanceof JobOutcome.Replayed)) {
                return before;
            }
            deadLettered.put(key, ended);
            return ended;
        }
    }

    @Override
    public int recordReplayed(QueueName queue, Collection<String> keys, Instant at) {
        checkAvailable();
        synchronized (lock) {
            int changed = 0;
            for (String name : keys) {
                Key key = new Key(queue, name);
                if (deadLettered.get(key) instanceof JobOutcome.Dead dead) {
                    deadLettered.put(key, new JobOutcome.Replayed(dead.record(), at));
                    changed++;
                }
            }
            return changed;
        }
    }

    @Override
    public int recordPurged(QueueName queue, Collection<String> keys, Instant at) {
        checkAvailable();
        synchronized (lock) {
            int changed = 0;
            for (String name : keys) {
                Key key = new Key(queue, name);
                JobOutcome before = deadLettered.get(key);
                Optional<DeadLetterRecord> record = before instanceof JobOutcome.Dead dead ? Optional.of(dead.record())
                        : before instanceof JobOutcome.Replayed replayed ? Optional.of(replayed.record())
                        : Optional.empty();
                if (record.isPresent()) {
                    deadLettered.put(key, new JobOutcome.Purged(record.get(), at));
                    changed++;
                }
            }
            return changed;
        }
    }

    @Override
    public Optional<JobOutcome> find(QueueName queue, String key) {
        Key scoped = new Key(queue, key);
        synchronized (lock) {
            return Optional.ofNullable(completions.get(scoped)).<JobOutcome>map(JobOutcome.Completed::new)
                    .or(() -> Optional.ofNullable(deadLettered.get(scoped)));
        }
    }

    @Override
    public Map<DeadLetterReason, Long> countDead(QueueName queue) {
        synchronized (lock) {
            Map<DeadLetterReason, Long> counts = new EnumMap<>(DeadLetterReason.class);
            deadLettered.values().stream()
                    .filter(outcome -> outcome instanceof JobOutcome.Dead && outcome.queue().equals(queue))
                    .forEach(outcome -> counts.merge(((JobOutcome.Dead) outcome).record().reason(), 1L, Long::sum));
            return Map.copyOf(counts);
        }
    }

    @Override
    public List<JobOutcome> search(OutcomeQuery query, int limit) {
        synchronized (lock) {
            return Stream.concat(completions.values().stream().<JobOutcome>map(JobOutcome.Completed::new),
                            deadLettered.values().stream())
                    .filter(query::matches)
                    .sorted(Comparator.comparing(JobOutcome::at).thenComparing(JobOutcome::key).reversed())
                    .limit(limit)
                    .toList();
        }
    }

    @Override
    public long countCompletedSince(QueueName queue, Instant since) {
        synchronized (lock) {
            return completions.values().stream()
                    .filter(completion -> completion.queue().equals(queue) && !completion.completedAt().isBefore(since))
                    .count();
        }
    }

    private void checkAvailable() {
        if (unavailable.get()) {
            throw new LedgerUnavailableException("in-memory ledger is down (test hook)", null);
        }
    }

    /** A job's key in this ledger: its queue and its id (or a malformed entry's key). */
    private record Key(QueueName queue, String key) {
        static Key of(Job job) {
            return new Key(job.queue(), job.id().value());
        }

        @Override
        public String toString() {
            return queue + "/" + key;
        }
    }

    private record Transaction(InMemoryEffects effects) implements LedgerTransaction {
        @Override
        public <T> T unwrap(Class<T> type) {
            if (type.isInstance(effects)) {
                return type.cast(effects);
            }
            throw new UnsupportedOperationException(
                    "the in-memory ledger supports only " + InMemoryEffects.class.getName() + ", not "
                            + type.getName());
        }
    }

    /** Inside this ledger: the effect failed; leaves {@link #execute} as {@link LedgerOutcome.EffectFailed}. */
    private static final class EffectFailed extends RuntimeException {
        EffectFailed(Throwable cause) {
            super(cause);
        }
    }
}
