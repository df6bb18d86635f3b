package dev.baton.application.port.out;

import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** One stream entry leased to a consumer: a valid job, or an entry that is not one. */
public sealed interface Delivery {

    QueueName queue();

    DeliveryId id();

    /** How many times this entry was delivered, this delivery included (the stream's own counter). */
    long deliveryCount();

    /** The ids of the jobs among {@code deliveries}, in their order: a malformed entry has none. */
    static List<JobId> jobIdsOf(Collection<? extends Delivery> deliveries) {
        return deliveries.stream()
                .filter(Leased.class::isInstance)
                .map(delivery -> ((Leased) delivery).job().id())
                .toList();
    }

    /**
     * A valid job.
     *
     * @param isolatedDeliveries how many earlier deliveries of this entry ran isolated (alone in their worker, see
     *                           {@link JobLeases#isolate}) and never finished: the worker died or lost the lease
     */
    record Leased(QueueName queue, DeliveryId id, long deliveryCount, Job job, long isolatedDeliveries)
            implements Delivery {
        public Leased {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(job, "job");
            if (isolatedDeliveries < 0) {
                throw new IllegalArgumentException("isolated deliveries must not be negative: " + isolatedDeliveries);
            }
        }

        /**
         * Delivered before, to a consumer that went silent or restarted without finishing it: it may be what killed
         * that worker, so it runs as a suspect, alone in its worker.
         */
        public boolean suspect() {
            return deliveryCount > 1;
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
