package dev.baton.application.service;

import dev.baton.application.port.out.JobOutbox;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.application.port.out.TransportException;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterRecord;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dead-letters the outbox rows that cannot become jobs, or that the transport refuses, as MALFORMED with their reason:
 * recorded dead in the ledger, appended to the queue's dead letters, then marked malformed in the outbox. A row whose
 * queue name is invalid has no queue: it is only marked.
 */
final class OutboxRefusals {
    /** The relay's: its lines are the relay's to operators. */
    private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);
    /** Who dead-letters the outbox's malformed rows, in the ledger's record of them. */
    static final ConsumerName CONSUMER = ConsumerName.of("outbox-relay");

    private final JobOutbox outbox;
    private final JobPublisher publisher;
    private final JobOutcomes outcomes;
    private final Clock clock;

    OutboxRefusals(JobOutbox outbox, JobPublisher publisher, JobOutcomes outcomes, Clock clock) {
        this.outbox = outbox;
        this.publisher = publisher;
        this.outcomes = outcomes;
        this.clock = clock;
    }

    /** Dead-letters a row that is a job, refused for {@code reason}. */
    void refuse(long position, Job job, String reason) {
        JobError error = JobError.permanent("malformed", reason);
        refuse(position, Optional.of(DeadLetter.of(job, DeadLetterReason.MALFORMED, error, 0, clock.instant())),
                reason);
    }

    /** Dead-letters a row that is no job, with its values verbatim. */
    void refuse(JobOutbox.Entry.Malformed row) {
        refuse(row.position(), letterOf(row), row.reason());
    }

    /** The dead letter of a row that is no job, with its values verbatim; none when its queue name is invalid. */
    private Optional<DeadLetter> letterOf(JobOutbox.Entry.Malformed row) {
        try {
            return Optional.of(DeadLetter.malformed(QueueName.of(row.queue()), row.fields(), row.reason(),
                    clock.instant()));
        } catch (InvalidValueException noQueue) {
            return Optional.empty();
        }
    }

    /**
     * Dead-letters a row: the ledger first, then the transport, then the mark that keeps relays off it, each a call of
     * its own (no transaction spans the transport's). When the ledger or the transport fails, the row stays unmarked:
     * once its claim expired, a relay claims it again and dead-letters it once (both steps are once per job).
     */
    private void refuse(long position, Optional<DeadLetter> letter, String reason) {
        String origin = "outbox:" + position;
        try {
            if (letter.isPresent()) {
                JobOutcome outcome = outcomes.recordDead(DeadLetterRecord.of(letter.get(), CONSUMER, origin));
                // completed or purged under the same job id: the ledger's answer stands, the row is only marked
                if (outcome instanceof JobOutcome.Dead) {
                    publisher.deadLetterUnpublished(letter.get(), origin);
                }
            }
        } catch (LedgerUnavailableException | TransportException e) {
            LOG.warn("could not dead-letter outbox row {}, retrying once its claim expires: {}", position,
                    e.toString());
            return;
        }
        LOG.warn("outbox row is no job, dead-lettered MALFORMED position={} queue={} reason={}", position,
                letter.map(l -> l.queue().value()).orElse("(invalid: kept in the outbox only)"),
                LogText.escaped(reason));
        outbox.markMalformed(position, reason);
    }
}
