package dev.baton.application.testing;

import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobOutbox;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import java.util.Optional;

class InMemoryJobOutboxTest extends JobOutboxContract {
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(MutableClock.at(T0));
    private InMemoryJobOutbox outbox;

    /** The outbox reads the ledger as the PostgreSQL one reads job_outcomes: by the job's queue and id. */
    @Override
    protected JobOutbox createOutbox() {
        outbox = new InMemoryJobOutbox(job -> ledger.find(job.queue(), job.id()).isPresent());
        return outbox;
    }

    @Override
    protected void commit(Job job) {
        outbox.add(job);
    }

    @Override
    protected void end(Job job) {
        ledger.execute(new ExecutionLedger.Execution(job, ConsumerName.of("w"), new DeliveryId("1-0"), 1,
                T0.plusSeconds(60)), transaction -> Optional.empty());
    }
}
