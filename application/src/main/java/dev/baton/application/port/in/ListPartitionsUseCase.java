package dev.baton.application.port.in;

import dev.baton.domain.PartitionStats;
import dev.baton.domain.QueueName;
import java.util.List;
import java.util.Objects;

/** The numbers of each partition of a partitioned queue; none for a queue of one partition. */
public interface ListPartitionsUseCase {

    List<PartitionStats> partitions(Command command);

    record Command(QueueName queue) {
        public Command {
            Objects.requireNonNull(queue, "queue");
        }
    }
}
