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
 * effect): dead-lettered, replayed, purged. Keyed like completions, by job id ({@link DeadLetterRecord#key}), so a
 * job is completed or dead, never both. Each call is its own short transaction; none is held across a call to the
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
        public int recordReplayed(Collection<String> keys, Instant at) {
            return 0;
        }

        @Override
        public int recordPurged(Collection<String> keys, Instant at) {
            return 0;
        }

        @Override
        public Optional<JobOutcome> find(String key) {
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

    /** Marks the dead ones among these keys replayed at {@code at}; others stay as they are. @return how many */
    int recordReplayed(Collection<String> keys, Instant at);

    /** Marks the dead ones among these keys purged at {@code at}; others stay as they are. @return how many */
    int recordPurged(Collection<String> keys, Instant at);

    /** How the job with this key ended, if the ledger still holds it. */
    Optional<JobOutcome> find(String key);

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
