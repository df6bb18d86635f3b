package dev.baton.application.port.in;

import dev.baton.domain.QueueName;
import java.util.List;

/** The queues the transport holds anything of, by name: what operators may look at besides the configured ones. */
public interface ListQueuesUseCase {

    List<QueueName> queues();
}
