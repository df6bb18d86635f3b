package dev.baton.application.testing;

import dev.baton.application.port.out.JobOutbox;
import dev.baton.domain.Job;

class InMemoryJobOutboxTest extends JobOutboxContract {
    private InMemoryJobOutbox outbox;

    @Override
    protected JobOutbox createOutbox() {
        outbox = new InMemoryJobOutbox();
        return outbox;
    }

    @Override
    protected void commit(Job job) {
        outbox.add(job);
    }
}
