package dev.baton.application.port.out;

import dev.baton.domain.Job;
import dev.baton.domain.QueueName;
import java.util.Map;
import java.util.Objects;

/** One stream entry leased to a consumer: a valid job, or an entry that is not one. */
public sealed interface Delivery {

    QueueName queue();

    DeliveryId id();

    /** How many times this entry was delivered, this delivery included (the stream's own counter). */
    long deliveryCount();

    record Leased(QueueName queue, DeliveryId id, long deliveryCount, Job job) implements Delivery {
        public Leased {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(job, "job");
        }
    }

    /**
     * An entry that is not a valid job (missing {@code job_id}/{@code payload}, bad {@code attempt}, oversized
     * payload, invalid UTF-8). The worker dead-letters it as MALFORMED with {@code fields} verbatim.
     */
    record Malformed(QueueName queue, DeliveryId id, long deliveryCount, Map<String, String> fields, String problem)
            implements Delivery {
        public Malformed {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(problem, "problem");
            fields = Map.copyOf(fields);
        }
    }
}
