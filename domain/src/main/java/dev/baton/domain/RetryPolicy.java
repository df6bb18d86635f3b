package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * Decides, after a failed attempt, whether a job runs again and when.
 *
 * @param maxAttempts           attempts in all, the first one included (1 = never retry)
 * @param backoff               the delay before each retry
 * @param jitter                how the delay is spread
 * @param nonRetryableErrorTypes error types that are never retried, whatever the handler said
 */
public record RetryPolicy(int maxAttempts, Backoff backoff, Jitter jitter, Set<String> nonRetryableErrorTypes) {

    public static final RetryPolicy DEFAULT = new RetryPolicy(5,
            new Backoff.Exponential(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5)), Jitter.EQUAL, Set.of());

    public RetryPolicy {
        require(maxAttempts >= 1, "max attempts must be at least 1, got " + maxAttempts);
        notNull(backoff, "backoff");
        notNull(jitter, "jitter");
        nonRetryableErrorTypes = Set.copyOf(notNull(nonRetryableErrorTypes, "non-retryable error types"));
    }

    /**
     * The decision for {@code job} whose current attempt ({@link Job#currentAttempt()}) failed with {@code error}.
     */
    public RetryDecision decide(Job job, JobError error, Instant now, RandomSource random) {
        if (!isRetryable(error)) {
            return new RetryDecision.DeadLetterNow(DeadLetterReason.NON_RETRYABLE);
        }
        int failedAttempt = job.currentAttempt();
        if (failedAttempt >= maxAttempts) {
            return new RetryDecision.DeadLetterNow(DeadLetterReason.EXHAUSTED);
        }
        Duration delay = jitter.apply(backoff.delayBefore(failedAttempt), random);
        return new RetryDecision.RetryAt(now.plus(delay), delay);
    }

    public boolean isRetryable(JobError error) {
        return error.retryable() && !nonRetryableErrorTypes.contains(error.type());
    }

    public RetryPolicy withMaxAttempts(int attempts) {
        return new RetryPolicy(attempts, backoff, jitter, nonRetryableErrorTypes);
    }
}
