package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobObserver;
import dev.baton.domain.Completion;
import dev.baton.domain.Job;
import dev.baton.domain.QueueName;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A delivery whose end is recorded, handed over for acknowledgement ({@link Ending#HANDED_OVER}); the job counts as
 * ended this way only once acknowledged ({@link #acknowledged}), and the line that says so is the listener's
 * ({@link AcknowledgedHandOvers}).
 */
sealed interface HandedOver extends Acknowledgements.Finished {

    HeldDelivery held();

    Delivery.Leased delivery();

    /** Tells {@code observer} how the job ended, now that its acknowledgement went. */
    void acknowledged(JobObserver observer);

    @Override
    default QueueName queue() {
        return delivery().queue();
    }

    @Override
    default DeliveryId id() {
        return delivery().id();
    }

    /** Its effect committed; the run took {@code took}. */
    record Completed(HeldDelivery held, Delivery.Leased delivery, Duration took) implements HandedOver {
        private static final Logger LOG = LoggerFactory.getLogger(AcknowledgedHandOvers.class);

        @Override
        public void acknowledged(JobObserver observer) {
            Job job = delivery.job();
            observer.jobCompleted(job, took);
            LOG.debug("job completed queue={} job={} delivery={}", job.queue(), job.id(), id());
        }
    }

    /** It completed before ({@code earlier}): not committed again. */
    record Duplicate(HeldDelivery held, Delivery.Leased delivery, Completion earlier) implements HandedOver {
        private static final Logger LOG = LoggerFactory.getLogger(AcknowledgedHandOvers.class);

        @Override
        public void acknowledged(JobObserver observer) {
            Job job = delivery.job();
            observer.duplicateSkipped(job, earlier);
            LOG.debug("job already completed, acknowledged without committing again queue={} job={} delivery={}",
                    job.queue(), job.id(), id());
            warnIfCollided(job);
        }

        /**
         * A duplicate that is another job under the same id (another type) is never skipped silently: a WARN names
         * both jobs (the observers count it from {@code earlier} too, docs/HANDLERS.md#job-ids).
         */
        private void warnIfCollided(Job job) {
            if (!earlier.isOf(job)) {
                LOG.warn("job id collision: job {} of queue {} (type {}) was not run, as a duplicate of job {} of queue"
                        + " {} (type {}) that completed at {}; a job id must be unique within its queue", job.id(),
                        job.queue(), job.type().orElse("none"), earlier.jobId(), earlier.queue(),
                        earlier.type().orElse("none"), earlier.completedAt());
            }
        }
    }

    /** An operator cancelled it: nothing committed, no retry. */
    record Cancelled(HeldDelivery held, Delivery.Leased delivery) implements HandedOver {
        private static final Logger LOG = LoggerFactory.getLogger(AcknowledgedHandOvers.class);

        @Override
        public void acknowledged(JobObserver observer) {
            Job job = delivery.job();
            observer.jobCancelled(job);
            LOG.info("job cancelled, acknowledged without running to its end queue={} job={} delivery={}",
                    job.queue(), job.id(), id());
        }
    }
}
