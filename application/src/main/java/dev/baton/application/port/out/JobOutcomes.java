package dev.baton.application.port.out;

import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterRecord;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.OutcomeQuery;
import dev.baton.domain.QueueName;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The execution ledger's record of how jobs ended besides completing (which {@link ExecutionLedger} records with the
 * effect): dead-lettered, replayed, purged, cancelled. Keyed like completions, by queue and job id
 * ({@link DeadLetterRecord#queue}, {@link DeadLetterRecord#key}), so a job is completed or dead, never both, and the
 * same id on another queue is another job. Each call is its own short transaction; none is held across a call to the
 * transport, and each is made before the transport moves the entry. Implementations report their own failure as
 * {@link LedgerUnavailableException}.
 */
public interface JobOutcomes {

    /** Records nothing (at-least-once, without a ledger): every dead letter goes ahead, nothing is found. */
    JobOutcomes NOT_RECORDED = new JobOutcomes() {
        @Override
        public JobOutcome recordDead(DeadLetterRecord record) {
            return new JobOutcome.Dead(record);
        }

        @Override
        public JobOutcome recordCancelled(String key, QueueName queue, Instant at) {
            return new JobOutcome.Cancelled(key, queue, at);
        }

        @Override
        public int recordReplayed(QueueName queue, Collection<String> keys, Instant at) {
            return 0;
        }

        @Override
        public int recordPurged(QueueName queue, Collection<String> keys, Instant at) {
            return 0;
        }

        @Override
        public Optional<JobOutcome> find(QueueName queue, String key) {
            return Optional.empty();
        }

        @Override
        public Map<DeadLetterReason, Long> countDead(QueueName queue) {
            return Map.of();
        }

        @Override
        public List<JobOutcome> search(OutcomeQuery query, int limit) {
            return List.of();
        }

        @Override
        public long countCompletedSince(QueueName queue, Instant since) {
            return 0;
        }
    };

    /**
     * Records that a job goes to the dead letters, unless the ledger says it ended otherwise.
     *
     * @return the job's outcome now: {@link JobOutcome.Dead} with {@code record}, or with the record of an earlier
     *     death (the transport lost or rolled back its move: the caller moves it again); {@link JobOutcome.Completed}
     *     or {@link JobOutcome.Purged} (the caller acknowledges instead of dead-lettering). A replayed job dies anew.
     */
    JobOutcome recordDead(DeadLetterRecord record);

    /**
     * Records that an operator cancelled the job with this key of {@code queue} at {@code at}, unless the ledger says
     * it ended otherwise: one atomic insert, so a cancel racing the job's commit either wins (the completion's insert
     * then conflicts with the cancelled row and rolls back) or loses (the completion is the answer), never both.
     *
     * @return the job's outcome now: {@link JobOutcome.Cancelled} at {@code at} when this call cancelled it (a
     *     replayed job included), else what it was: completed, dead, purged, or cancelled before
     */
    JobOutcome recordCancelled(String key, QueueName queue, Instant at);

    /**
     * Marks the dead ones among these keys of {@code queue} replayed at {@code at}; others stay as they are.
     * @return how many
     */
    int recordReplayed(QueueName queue, Collection<String> keys, Instant at);

    /**
     * Marks the dead ones among these keys of {@code queue} purged at {@code at}; others stay as they are.
     * @return how many
     */
    int recordPurged(QueueName queue, Collection<String> keys, Instant at);

    /** How the job with this key of {@code queue} ended, if the ledger still holds it. */
    Optional<JobOutcome> find(QueueName queue, String key);

    /** How many of {@code queue}'s jobs are dead in the ledger now, by reason (reasons with none left out). */
    Map<DeadLetterReason, Long> countDead(QueueName queue);

    /**
     * The first {@code limit} outcomes {@code query} finds, newest first (by {@link JobOutcome#at}, then by key, both
     * descending): a page of a search that an index serves on millions of rows (docs/OPERATIONS.md).
     */
    List<JobOutcome> search(OutcomeQuery query, int limit);

    /** How many of {@code queue}'s jobs completed at or after {@code since} (and are still retained). */
    long countCompletedSince(QueueName queue, Instant since);
}
