package dev.baton.application.testing;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The in-memory transport's one mapping step: a job as the wire fields Redis carries ({@code job_id},
 * {@code payload}, {@code attempt}, {@code type}, {@code enqueued_at}, any other field a header), and back.
 */
final class WireFields {
    static final String JOB_ID = "job_id";
    static final String PAYLOAD = "payload";
    static final String ATTEMPT = "attempt";
    static final String TYPE = "type";
    static final String ENQUEUED_AT = "enqueued_at";
    private static final Set<String> RESERVED = Set.of(JOB_ID, PAYLOAD, ATTEMPT, TYPE, ENQUEUED_AT);

    private final PayloadLimit payloadLimit;

    WireFields(PayloadLimit payloadLimit) {
        this.payloadLimit = payloadLimit;
    }

    /** The wire fields of a job, as the Redis transport writes them. */
    static Map<String, String> of(Job job) {
        Map<String, String> fields = new LinkedHashMap<>(job.headers());
        fields.put(JOB_ID, job.id().value());
        fields.put(PAYLOAD, job.payload());
        fields.put(ATTEMPT, Integer.toString(job.attempt()));
        fields.put(ENQUEUED_AT, Long.toString(job.enqueuedAt().toEpochMilli()));
        job.type().ifPresent(type -> fields.put(TYPE, type));
        return fields;
    }

    /**
     * Reads an entry's fields back into a job, or says why they are not one.
     *
     * @param isolated the entry's isolated deliveries so far
     */
    Delivery delivery(QueueName queue, EntryId id, long deliveries, long isolated, Map<String, String> fields) {
        DeliveryId deliveryId = new DeliveryId(id.toString());
        String jobId = fields.get(JOB_ID);
        String payload = fields.get(PAYLOAD);
        if (jobId == null || payload == null) {
            return new Delivery.Malformed(queue, deliveryId, deliveries, fields,
                    "missing field " + (jobId == null ? JOB_ID : PAYLOAD));
        }
        if (!payloadLimit.admits(payload)) {
            return new Delivery.Malformed(queue, deliveryId, deliveries, fields,
                    "payload is larger than the limit of " + payloadLimit.maxBytes() + " bytes");
        }
        try {
            int attempt = Integer.parseInt(fields.getOrDefault(ATTEMPT, "0"));
            Instant enqueuedAt = Instant.ofEpochMilli(Long.parseLong(fields.getOrDefault(ENQUEUED_AT, "0")));
            Map<String, String> headers = new HashMap<>(fields);
            headers.keySet().removeAll(RESERVED);
            Job job = new Job(JobId.of(jobId), queue, Optional.ofNullable(fields.get(TYPE)), payload, attempt,
                    enqueuedAt, Optional.empty(), Optional.empty(), headers);
            return new Delivery.Leased(queue, deliveryId, deliveries, job, isolated);
        } catch (NumberFormatException | InvalidValueException e) {
            return new Delivery.Malformed(queue, deliveryId, deliveries, fields, "invalid job: " + e.getMessage());
        }
    }

    /** The job with {@code id} these fields carry; empty when they carry another job, no valid job, or are gone. */
    Optional<Job> jobWithId(QueueName queue, Map<String, String> fields, JobId id) {
        if (fields == null || !id.value().equals(fields.get(JOB_ID))) {
            return Optional.empty();
        }
        return delivery(queue, EntryId.ZERO, 0, 0, fields) instanceof Delivery.Leased leased
                ? Optional.of(leased.job()) : Optional.empty();
    }
}
