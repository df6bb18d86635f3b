package dev.baton.application.service.worker;

import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.domain.Completion;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hears how acknowledgements went: a job counts as completed (or as a duplicate, or cancelled) only once acknowledged,
 * and the worker stops holding it either way (its slot was freed when it was handed over).
 */
final class AcknowledgedAttempts implements Acknowledgements.Listener<RunOutcome> {
    private static final Logger LOG = LoggerFactory.getLogger(AcknowledgedAttempts.class);

    private final InFlight inFlight;
    private final JobObserver observer;
    private final ConsumerName consumer;

    AcknowledgedAttempts(InFlight inFlight, JobObserver observer, ConsumerName consumer) {
        this.inFlight = inFlight;
        this.observer = observer;
        this.consumer = consumer;
    }

    @Override
    public void acknowledged(List<RunOutcome> finished) {
        for (RunOutcome one : finished) {
            Job job = one.delivery().job();
            if (one.outcome() instanceof LedgerOutcome.Committed) {
                observer.jobCompleted(job, one.took());
                LOG.debug("job completed queue={} job={} delivery={}", job.queue(), job.id(), one.id());
            } else if (one.cancelled()) {
                observer.jobCancelled(job);
                LOG.info("job cancelled, acknowledged without running to its end queue={} job={} delivery={}",
                        job.queue(), job.id(), one.id());
            } else if (one.outcome() instanceof LedgerOutcome.AlreadyCompleted done) {
                observer.duplicateSkipped(job, done.completion());
                LOG.debug("job already completed, acknowledged without committing again queue={} job={} delivery={}",
                        job.queue(), job.id(), one.id());
                warnIfCollided(job, done.completion());
            }
        }
        forget(finished);
    }

    /**
     * A duplicate that is another job under the same id (another type) is never skipped silently: a WARN names both
     * jobs (the observers count it from {@code earlier} too, docs/HANDLERS.md#job-ids).
     */
    private static void warnIfCollided(Job job, Completion earlier) {
        if (!earlier.isOf(job)) {
            LOG.warn("job id collision: job {} of queue {} (type {}) was not run, as a duplicate of job {} of queue {}"
                    + " (type {}) that completed at {}; a job id must be unique within its queue", job.id(),
                    job.queue(), typeOf(job.type()), earlier.jobId(), earlier.queue(), typeOf(earlier.type()),
                    earlier.completedAt());
        }
    }

    private static String typeOf(Optional<String> type) {
        return type.orElse("none");
    }

    @Override
    public void notAcknowledged(List<RunOutcome> finished, RuntimeException failure) {
        // committed, so a redelivery finds the completion (exactly-once) or runs again (at-least-once)
        LOG.warn("could not acknowledge, left pending for redelivery consumer={} count={} first delivery={}: {}",
                consumer, finished.size(), finished.get(0).id(), failure.toString());
        forget(finished);
    }

    private void forget(List<RunOutcome> finished) {
        inFlight.forget(finished.stream().map(RunOutcome::held).toList());
    }
}
