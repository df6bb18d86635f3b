package dev.baton.application.service;

import dev.baton.application.port.in.InspectOutboxUseCase;
import dev.baton.application.port.out.JobOutbox;
import dev.baton.domain.OutboxBacklog;
import java.time.Clock;
import java.util.Objects;

/** Reads the outbox's backlog at the clock's instant. */
public final class InspectOutboxService implements InspectOutboxUseCase {
    private final JobOutbox outbox;
    private final Clock clock;

    public InspectOutboxService(JobOutbox outbox, Clock clock) {
        this.outbox = Objects.requireNonNull(outbox, "outbox");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public OutboxBacklog inspect() {
        return outbox.backlog(clock.instant());
    }
}
