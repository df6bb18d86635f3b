package dev.baton.application.service;

import dev.baton.application.port.in.CancelJobUseCase;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.domain.JobOutcome;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancels jobs: the ledger first (one atomic insert, unless the job ended before), then the transport (one atomic
 * write), so that no worker runs the job and the running one hears of it. The answer never comes from looking the job
 * up in the transport, whose moves a lookup can miss: it is the ledger's insert, and without a ledger
 * ({@link JobOutcomes#NOT_RECORDED}) the transport's write. A cancel whose transport write failed is repaired by
 * cancelling again.
 */
public final class CancelService implements CancelJobUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(CancelService.class);

    private final JobOutcomes outcomes;
    private final QueueAdministration queues;
    private final Clock clock;

    public CancelService(JobOutcomes outcomes, QueueAdministration queues, Clock clock) {
        this.outcomes = outcomes;
        this.queues = queues;
        this.clock = clock;
    }

    @Override
    public Answer cancel(Command command) {
        // the ledger keeps microseconds: a time it gives back equals this one only at a coarser unit
        Instant at = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        JobOutcome recorded = outcomes.recordCancelled(command.id().value(), command.queue(), at);
        Answer answer;
        if (recorded instanceof JobOutcome.Cancelled cancelled) {
            boolean cancelledNow = cancelled.cancelledAt().equals(at);
            // written again after an earlier cancel too: a transport that lost it, or a write that failed, is repaired
            boolean written = queues.cancel(command.queue(), command.id(), at);
            answer = cancelledNow && written ? Answer.CANCELLED : Answer.ALREADY_CANCELLED;
        } else if (recorded instanceof JobOutcome.Completed) {
            answer = Answer.ALREADY_COMPLETED;
        } else if (recorded instanceof JobOutcome.Purged) {
            answer = Answer.ALREADY_PURGED;
        } else {
            answer = Answer.ALREADY_DEAD;
        }
        LOG.info("cancel of job answered {} queue={} job={}", answer, command.queue(), command.id());
        return answer;
    }
}
