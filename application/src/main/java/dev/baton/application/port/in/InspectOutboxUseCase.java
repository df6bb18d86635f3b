package dev.baton.application.port.in;

import dev.baton.domain.OutboxBacklog;

/** The numbers of the transactional outbox: rows waiting for a relay, the oldest one's age, malformed rows. */
public interface InspectOutboxUseCase {

    /** One read of the outbox, now. */
    OutboxBacklog inspect();
}
