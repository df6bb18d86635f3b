package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * A search of one queue's terminal outcomes in the execution ledger, newest first, one page at a time: by state,
 * dead-letter reason, time range ({@code from} inclusive, {@code to} exclusive), and a text the error message contains
 * (ignoring case). A reason or an error text matches dead-lettered jobs only (completions have neither). The page's
 * size is the caller's.
 *
 * @param before the cursor of the previous page's last outcome; empty for the first page
 */
public record OutcomeQuery(QueueName queue, Optional<OutcomeState> state, Optional<DeadLetterReason> reason,
                           Optional<Instant> from, Optional<Instant> to, Optional<String> errorText,
                           Optional<OutcomeCursor> before) {
    public static final int MAX_ERROR_TEXT = 200;

    public OutcomeQuery {
        notNull(queue, "queue");
        notNull(state, "state");
        notNull(reason, "reason");
        notNull(from, "from");
        notNull(to, "to");
        notNull(errorText, "error text");
        notNull(before, "before");
        require(from.isEmpty() || to.isEmpty() || from.get().isBefore(to.get()), "from must be before to");
        errorText = errorText.map(String::strip).filter(text -> !text.isEmpty());
        require(errorText.map(String::length).orElse(0) <= MAX_ERROR_TEXT,
                "the error text must be at most " + MAX_ERROR_TEXT + " characters");
    }

    /** The first page of every outcome of {@code queue}. */
    public static OutcomeQuery all(QueueName queue) {
        return new OutcomeQuery(queue, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    public OutcomeQuery withBefore(OutcomeCursor cursor) {
        return new OutcomeQuery(queue, state, reason, from, to, errorText, Optional.of(cursor));
    }

    /** Whether {@code outcome} is one this query finds, the cursor included (for stores without a query language). */
    public boolean matches(JobOutcome outcome) {
        Optional<DeadLetterRecord> record = outcome.deadLetterRecord();
        return outcome.queue().equals(queue)
                && state.map(s -> OutcomeState.of(outcome) == s).orElse(true)
                && reason.map(r -> record.filter(dead -> dead.reason() == r).isPresent()).orElse(true)
                && from.map(start -> !outcome.at().isBefore(start)).orElse(true)
                && to.map(end -> outcome.at().isBefore(end)).orElse(true)
                && errorText.map(text -> record.filter(dead -> dead.error().message().toLowerCase(Locale.ROOT)
                        .contains(text.toLowerCase(Locale.ROOT))).isPresent()).orElse(true)
                && before.map(cursor -> cursor.precedes(outcome)).orElse(true);
    }
}
