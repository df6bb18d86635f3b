package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The execution ledger's record that a delivery went to the dead letters: why, with what error, after how many
 * attempts, when and by whom. It outlives the transport's dead letter, so that a delivery of the job after Redis lost
 * or rolled back the move is recognised, and the dead letter written again from it.
 *
 * @param key      the job id, or for a malformed entry without one {@link #entryKey the entry's key}
 * @param entryId  the id of the stream entry that was dead-lettered
 */
public record DeadLetterRecord(String key, QueueName queue, DeadLetterReason reason, JobError error, int attempts,
                               ConsumerName consumer, String entryId, Instant deadAt) {
    public DeadLetterRecord {
        notNull(key, "key");
        notNull(queue, "queue");
        notNull(reason, "reason");
        notNull(error, "error");
        notNull(consumer, "consumer");
        notNull(entryId, "entry id");
        notNull(deadAt, "dead-at");
        require(!key.isBlank(), "key must not be blank");
        require(attempts >= 0, "attempts must not be negative");
        // as the transport keeps a dead letter: its error final, its time in milliseconds
        error = error.asPermanent();
        deadAt = deadAt.truncatedTo(ChronoUnit.MILLIS);
    }

    /** The record of {@code letter}, dead-lettered by {@code consumer} from the stream entry {@code entryId}. */
    public static DeadLetterRecord of(DeadLetter letter, ConsumerName consumer, String entryId) {
        String key = letter.jobId().filter(id -> !id.isBlank()).orElseGet(() -> entryKey(letter.queue(), entryId));
        return new DeadLetterRecord(key, letter.queue(), letter.reason(), letter.lastError(), letter.attempts(),
                consumer, entryId, letter.deadAt());
    }

    /**
     * The key of a malformed entry without a job id: its entry id, qualified with its queue (entry ids repeat across
     * queues) and marked so that it never reads as a job id.
     */
    public static String entryKey(QueueName queue, String entryId) {
        return "entry:" + queue.value() + ":" + entryId;
    }

    /** The dead letter to write again for {@code job}, delivered after the transport lost the one recorded here. */
    public DeadLetter letterFor(Job job) {
        return DeadLetter.of(job, reason, error, attempts, deadAt);
    }
}
