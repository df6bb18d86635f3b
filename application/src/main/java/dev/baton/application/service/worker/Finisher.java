package dev.baton.application.service.worker;

import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.handler.SnoozeException;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.JobTracing.AttemptEnd;
import dev.baton.application.port.out.JobTracing.AttemptTrace;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.application.service.LogText;
import dev.baton.domain.AttemptOutcome;
import dev.baton.domain.Completion;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterRecord;
import dev.baton.domain.ErrorTrace;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.RandomSource;
import dev.baton.domain.RetryDecision;
import dev.baton.domain.RetryPolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a delivery once: what the ledger recorded is acknowledged (after the commit, never before), a snooze waits
 * in the delayed set with its attempt unspent, and so does a job that no handler of this worker takes (released for
 * a worker that has one; one WARN per type and minute), a failure is retried or dead-lettered by the retry policy,
 * an unknown outcome is left pending, so that its redelivery asks the ledger again. A cancelled job (the ledger says
 * so, or the cancel cut its attempt short) is acknowledged without a retry, and so is a delivery the triage found
 * cancelled. A delivery whose lease was lost, or that was abandoned at stop, is not ended here. Every attempt's trace
 * hears how it was settled.
 *
 * <p>A dead letter is recorded in the ledger first ({@link JobOutcomes}), then moved in the transport; when the ledger
 * says the job ended otherwise (completed, purged, or dead before), that ending wins: the delivery is acknowledged,
 * or its earlier dead letter written again (the transport writes it only if it lost it), never both.
 */
final class Finisher {
    private static final Logger LOG = LoggerFactory.getLogger(Finisher.class);
    /** At most one WARN per job type (or untyped queue) and minute for jobs that wait for a handler. */
    private static final Duration RELEASE_WARNING_INTERVAL = Duration.ofMinutes(1);

    private final JobLeases leases;
    private final JobOutcomes outcomes;
    private final Acknowledgements<HandedOver> acknowledgements;
    private final RetryPolicy retryPolicy;
    private final Duration jobTimeout;
    private final Clock clock;
    private final RandomSource random;
    private final JobObserver observer;
    private final ConsumerName consumer;
    private final Throttle releaseWarnings;
    private final LedgerOutage ledgerOutage;

    Finisher(JobLeases leases, JobOutcomes outcomes, Acknowledgements<HandedOver> acknowledgements,
             RetryPolicy retryPolicy, Duration jobTimeout, Clock clock, RandomSource random, JobObserver observer,
             ConsumerName consumer, LedgerOutage ledgerOutage) {
        this.leases = leases;
        this.outcomes = outcomes;
        this.acknowledgements = acknowledgements;
        this.retryPolicy = retryPolicy;
        this.jobTimeout = jobTimeout;
        this.clock = clock;
        this.random = random;
        this.observer = observer;
        this.consumer = consumer;
        this.releaseWarnings = new Throttle(clock, RELEASE_WARNING_INTERVAL);
        this.ledgerOutage = ledgerOutage;
    }

    /** @return how each run ended, in their order */
    Map<HeldDelivery, Ending> finish(List<RunOutcome> runs) {
        Map<HeldDelivery, Ending> endings = new LinkedHashMap<>();
        List<HandedOver> handedOver = new ArrayList<>(runs.size());
        List<RunOutcome> unknown = new ArrayList<>();
        for (RunOutcome run : runs) {
            endings.put(run.held(), end(run, handedOver, unknown));
        }
        if (!unknown.isEmpty()) {
            RunOutcome first = unknown.get(0);
            LOG.warn("ledger unavailable, jobs left pending for redelivery consumer={} count={} first job={}: {}",
                    consumer, unknown.size(), first.delivery().job().id(),
                    ((LedgerOutcome.Unknown) first.outcome()).failure().toString());
        }
        acknowledgements.acknowledge(handedOver);
        return endings;
    }

    /** Java 17 has no switch over the sealed {@link LedgerOutcome}: one branch per outcome, the cancel first. */
    private Ending end(RunOutcome run, List<HandedOver> handedOver, List<RunOutcome> unknown) {
        HeldDelivery held = run.held();
        Delivery.Leased delivery = run.delivery();
        LedgerOutcome outcome = run.outcome();
        if (run.cancelled()) {
            // checked first: a cancelled run's failure is the cancel's doing, not the job's
            return handOver(new HandedOver.Cancelled(held, delivery), run.trace(), AttemptEnd.CANCELLED, handedOver);
        }
        if (outcome instanceof LedgerOutcome.Unknown unknownOutcome) {
            unknown.add(run);
            ledgerOutage.notAnsweredFor(delivery.job());
            run.trace().ended(AttemptEnd.LEFT_PENDING, Optional.of(unknownOutcome.failure()));
            return Ending.LEFT_PENDING;
        }
        if (outcome instanceof LedgerOutcome.EffectFailed failed) {
            return endFailed(run, failed.cause());
        }
        if (outcome instanceof LedgerOutcome.AlreadyDead dead) {
            Ending ending = endAsRecordedOrLeavePending(held, dead.outcome());
            run.trace().ended(AttemptEnd.DUPLICATE, Optional.empty());
            return ending;
        }
        if (outcome instanceof LedgerOutcome.Committed) {
            return handOver(new HandedOver.Completed(held, delivery, run.took()), run.trace(), AttemptEnd.COMPLETED,
                    handedOver);
        }
        Completion earlier = ((LedgerOutcome.AlreadyCompleted) outcome).completion();
        return handOver(new HandedOver.Duplicate(held, delivery, earlier), run.trace(), AttemptEnd.DUPLICATE,
                handedOver);
    }

    /** Hands {@code one} over for acknowledgement, unless it is not this worker's to end any more. */
    private static Ending handOver(HandedOver one, AttemptTrace trace, AttemptEnd end, List<HandedOver> handedOver) {
        if (!one.held().beginFinish()) {
            trace.ended(AttemptEnd.NOT_SETTLED, Optional.empty());
            return Ending.NOT_OURS;
        }
        handedOver.add(one);
        trace.ended(end, Optional.empty());
        return Ending.HANDED_OVER;
    }

    /** Ends a delivery the triage settled: nothing ran. */
    Ending settle(Triage.Settled settled) {
        if (settled instanceof Triage.Completed completed) {
            return handOverAlone(new HandedOver.Duplicate(completed.held(), completed.delivery(),
                    completed.completion()));
        }
        if (settled instanceof Triage.Cancelled cancelled) {
            return handOverAlone(new HandedOver.Cancelled(cancelled.held(), cancelled.delivery()));
        }
        if (settled instanceof Triage.Refused refused) {
            if (!refused.held().beginFinish()) {
                return Ending.NOT_OURS;
            }
            LOG.warn("entry dead-lettered reason={} {} job={} deliveries={} problem={}", refused.letter().reason(),
                    refused.held(), LogText.escaped(refused.letter().jobId().orElse("(none)")),
                    refused.held().delivery().deliveryCount(),
                    LogText.firstLine(refused.letter().lastError().message()));
            deadLetter(refused.held().delivery(), refused.letter());
            return Ending.MOVED;
        }
        return release((Triage.Released) settled);
    }

    private Ending handOverAlone(HandedOver one) {
        List<HandedOver> handedOver = new ArrayList<>(1);
        Ending ending = handOver(one, AttemptTrace.NONE, AttemptEnd.DUPLICATE, handedOver);
        acknowledgements.acknowledge(handedOver);
        return ending;
    }

    /** Waits in the delayed set like a snooze, for a worker that has the job's handler: nothing ran, nothing spent. */
    private Ending release(Triage.Released released) {
        if (!released.held().beginFinish()) {
            return Ending.NOT_OURS;
        }
        Job job = released.delivery().job();
        Instant at = released.waiting().notBefore().orElseThrow();
        leases.retryLater(released.delivery(), released.waiting());
        String waitingSince = released.waiting().noHandlerSince().map(Instant::toString).orElse("?");
        if (releaseWarnings.admits(job.type().map(type -> "type " + type).orElse("queue " + job.queue()))) {
            LOG.warn("job waits for a worker with its handler: {}; released until {} queue={} job={} waiting since {}"
                    + " (at most one such line per type and minute)", LogText.firstLine(released.problem()), at,
                    job.queue(), job.id(), waitingSince);
        } else {
            LOG.debug("job waits for a worker with its handler, released until {} queue={} job={} type={}", at,
                    job.queue(), job.id(), job.type().orElse("(none)"));
        }
        return Ending.MOVED;
    }

    /** A delivery that could not be ended: it stays pending, for its redelivery. */
    Ending leftPending(HeldDelivery held, Throwable failure) {
        if (failure instanceof LedgerUnavailableException && held.delivery() instanceof Delivery.Leased leased) {
            ledgerOutage.notAnsweredFor(leased.job());
        }
        LOG.warn("could not finish delivery, left pending for redelivery consumer={} {}", consumer, held, failure);
        return Ending.LEFT_PENDING;
    }

    /**
     * A run that committed nothing: the handler's snooze, else a failure (timed out when past its deadline). Its
     * trace hears how it ended, with {@code failure} unless it snoozed: a snooze is not a failure.
     */
    private Ending endFailed(RunOutcome run, Throwable failure) {
        try {
            if (failure instanceof SnoozeException snooze) {
                return snooze(run, snooze);
            }
            JobError error = run.held().isPastDeadline() ? new AttemptOutcome.TimedOut(jobTimeout).asError()
                    : JobError.of(failure, !(failure instanceof NonRetryableException));
            return fail(run, error, failure);
        } catch (RuntimeException e) {
            run.trace().ended(AttemptEnd.LEFT_PENDING, Optional.of(failure));
            return leftPending(run.held(), e);
        }
    }

    /** Waits in the delayed set like a retry, but with the same attempt: a snooze is not a failure. */
    private Ending snooze(RunOutcome run, SnoozeException snooze) {
        if (!run.held().beginFinish()) {
            run.trace().ended(AttemptEnd.NOT_SETTLED, Optional.of(snooze));
            return Ending.NOT_OURS;
        }
        Job job = run.delivery().job();
        Instant at = clock.instant().plus(snooze.delay());
        Job snoozed = job.snoozedUntil(at);
        leases.retryLater(run.delivery(), snoozed.withHeaders(retryHeaders(snoozed, run.trace())));
        observer.jobSnoozed(job, at);
        LOG.debug("job snoozed until {} queue={} job={} attempt={} snoozes={}", at, job.queue(), job.id(),
                job.currentAttempt(), snoozed.snoozes());
        run.trace().ended(AttemptEnd.SNOOZED, Optional.empty());
        return Ending.MOVED;
    }

    /**
     * @param cause what the handler threw (or what cut it short): a dead letter keeps its trace, and so does the
     *              run's trace; a retry carries the trace's headers
     */
    private Ending fail(RunOutcome run, JobError error, Throwable cause) {
        AttemptTrace trace = run.trace();
        if (!run.held().beginFinish()) {
            trace.ended(AttemptEnd.NOT_SETTLED, Optional.of(cause));
            return Ending.NOT_OURS;
        }
        Delivery.Leased delivery = run.delivery();
        Job job = delivery.job();
        observer.jobFailed(job, error);
        Instant now = clock.instant();
        RetryDecision decision = retryPolicy.decide(job, error, now, random);
        if (decision instanceof RetryDecision.RetryAt retry) {
            Job retried = job.retriedAfter(error, retry.at());
            leases.retryLater(delivery, retried.withHeaders(retryHeaders(retried, trace)));
            observer.jobRetried(job, retry.at());
            LOG.debug("job failed, retry at {} queue={} job={} attempt={} error={}", retry.at(), job.queue(),
                    job.id(), job.currentAttempt(), error.type());
            trace.ended(AttemptEnd.RETRIED, Optional.of(cause));
            return Ending.MOVED;
        }
        DeadLetterReason reason = ((RetryDecision.DeadLetterNow) decision).reason();
        DeadLetter letter = DeadLetter.of(job, reason, error, job.currentAttempt(), now);
        deadLetter(delivery, letter.withTrace(ErrorTrace.of(cause)));
        // a final failure is what an operator must see: one WARN line (retries stay at DEBUG); the stack trace is in
        // the ledger and the dead letter, and at DEBUG
        LOG.warn("job dead-lettered reason={} queue={} job={} attempts={} error={}: {}", reason, job.queue(),
                job.id(), letter.attempts(), error.type(), LogText.firstLine(error.message()));
        LOG.debug("the dead-lettered job's stack trace queue={} job={}", job.queue(), job.id(), cause);
        trace.ended(AttemptEnd.DEAD_LETTERED, Optional.of(cause));
        return Ending.MOVED;
    }

    private static Map<String, String> retryHeaders(Job job, AttemptTrace trace) {
        Map<String, String> added = trace.retryHeaders();
        if (added.isEmpty()) {
            return job.headers();
        }
        Map<String, String> headers = new HashMap<>(job.headers());
        headers.putAll(added);
        return headers;
    }

    private Ending endAsRecordedOrLeavePending(HeldDelivery held, JobOutcome recorded) {
        if (!held.beginFinish()) {
            return Ending.NOT_OURS;
        }
        try {
            endAsRecorded(held.delivery(), recorded, Optional.empty());
            return Ending.MOVED;
        } catch (RuntimeException e) {
            return leftPending(held, e);
        }
    }

    /** The ledger first, then the transport, unless the ledger says the job ended otherwise. */
    private void deadLetter(Delivery delivery, DeadLetter letter) {
        DeadLetterRecord record = DeadLetterRecord.of(letter, consumer, delivery.id().value());
        JobOutcome recorded = outcomes.recordDead(record);
        if (recorded instanceof JobOutcome.Dead dead && dead.record().equals(record)) {
            leases.deadLetter(delivery, letter);
            observer.jobDeadLettered(letter);
        } else {
            endAsRecorded(delivery, recorded, Optional.of(letter));
        }
    }

    /**
     * Ends a delivery as the ledger says the job ended before: a dead job's dead letter is moved again (from the
     * ledger's record; {@code letter} when there is no job to rebuild it for), which the transport skips when it still
     * holds it; a completed or purged job is acknowledged.
     */
    private void endAsRecorded(Delivery delivery, JobOutcome recorded, Optional<DeadLetter> letter) {
        if (recorded instanceof JobOutcome.Dead dead) {
            DeadLetter again = delivery instanceof Delivery.Leased leased ? dead.record().letterFor(leased.job())
                    : letter.orElseThrow();
            leases.deadLetter(delivery, again);
        } else {
            leases.acknowledge(delivery.queue(), List.of(delivery.id()));
        }
        LOG.info("the ledger says the job ended before, so it was not run or dead-lettered again: {} {}", delivery.id(),
                recorded.getClass().getSimpleName());
    }
}
