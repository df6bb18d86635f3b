package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Duration;
import java.time.Instant;

/**
 * Decides what becomes of a job that no handler of the worker that leased it takes: its type has no handler there (or,
 * untyped, its queue has none). Such a job never runs there, but it is not lost: it waits for a worker that has the
 * handler (one of a newer release, during a rolling deploy), without spending an attempt, and is leased again after a
 * short wait that grows with the time it has waited (from {@link #FIRST_WAIT} up to {@link #LONGEST_WAIT}). Once it
 * has waited {@code grace} since a worker first found no handler for it ({@link Job#noHandlerSince()}), it is
 * dead-lettered as {@link DeadLetterReason#NO_HANDLER}. The grace counts from that first sighting, not from the
 * enqueue: a job delayed for a day, or long in a backlog, gets the whole grace once it comes due.
 *
 * @param grace how long a job may wait for a handler; zero dead-letters it at the first sighting
 */
public record NoHandlerPolicy(Duration grace) {
    public static final NoHandlerPolicy DEFAULT = new NoHandlerPolicy(Duration.ofMinutes(15));
    /** The first wait before the job is leased again. */
    public static final Duration FIRST_WAIT = Duration.ofSeconds(1);
    /** The longest wait: a worker with the handler takes the job at most this long after it appeared. */
    public static final Duration LONGEST_WAIT = Duration.ofMinutes(1);

    public NoHandlerPolicy {
        notNull(grace, "no-handler grace");
        require(!grace.isNegative(), "the no-handler grace must not be negative, got " + grace);
    }

    /** The decision for {@code job}, which no handler of the worker that leased it takes, at {@code now}. */
    public NoHandlerDecision decide(Job job, Instant now) {
        // a first sighting starts the grace; one recorded ahead of this clock (another worker's) counts from now
        Instant since = job.noHandlerSince().filter(recorded -> !recorded.isAfter(now)).orElse(now);
        Instant giveUp = since.plus(grace);
        Duration waited = Duration.between(since, now);
        if (!now.isBefore(giveUp)) {
            return new NoHandlerDecision.DeadLetterNow(job.withoutHandlerWait(), waited);
        }
        Duration wait = waited.compareTo(FIRST_WAIT) < 0 ? FIRST_WAIT
                : waited.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : waited;
        Instant due = now.plus(wait);
        return new NoHandlerDecision.Release(job.waitingForHandler(since, due.isAfter(giveUp) ? giveUp : due));
    }
}
