package dev.baton.application.port.in;

import dev.baton.domain.QueueListing;

/**
 * The queues the transport holds anything of, by name: what operators may look at besides the configured ones; and
 * those it cannot read, each with its problem.
 */
public interface ListQueuesUseCase {

    QueueListing queues();
}
