package dev.baton.application.service.worker;

import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the ledger answers the worker's jobs. A job left pending because the ledger did not answer (PostgreSQL out
 * of reach, at start or later) stops the fetcher leasing: leasing on would leave every job of the queue pending, each
 * reclaimed one at a time, as a suspect, once its lease expired. The fetcher then asks the ledger about that job, with
 * backoff ({@link FailureBackoff}), and leases again once it answers: the jobs wait in the stream meanwhile.
 */
final class LedgerOutage {
    private static final Logger LOG = LoggerFactory.getLogger(LedgerOutage.class);

    private final ExecutionLedger ledger;
    private final ConsumerName consumer;
    /** A job the ledger did not answer for; null while it answers. */
    private volatile Job unanswered;

    LedgerOutage(ExecutionLedger ledger, ConsumerName consumer) {
        this.ledger = ledger;
        this.consumer = consumer;
    }

    /** The ledger did not answer for {@code job}: it is left pending. */
    void notAnsweredFor(Job job) {
        unanswered = job;
    }

    /**
     * Returns at once while the ledger answers; else asks it, with backoff, until it answers or {@code goOn} turns
     * false.
     *
     * @param beforeWaiting runs once before the wait: what finishes meanwhile must not wait with the caller
     */
    void awaitAnswer(Runnable beforeWaiting, BooleanSupplier goOn) throws InterruptedException {
        Job job = unanswered;
        if (job == null) {
            return;
        }
        beforeWaiting.run();
        LOG.warn("the ledger did not answer, leasing stopped until it does consumer={} queue={} job={}", consumer,
                job.queue(), job.id());
        FailureBackoff backoff = new FailureBackoff();
        for (int asked = 1; goOn.getAsBoolean(); asked++) {
            Thread.sleep(backoff.next());
            try {
                ledger.find(job.queue(), job.id());
            } catch (RuntimeException e) {
                LOG.debug("the ledger still does not answer consumer={} asked={}: {}", consumer, asked, e.toString());
                continue;
            }
            unanswered = null;
            LOG.info("the ledger answers again, leasing resumed consumer={} asked={}", consumer, asked);
            return;
        }
    }
}
