package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/** Deliveries made up for the tests of one room, without a transport. */
final class Deliveries {
    static final QueueName QUEUE = QueueName.of("orders");
    static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final AtomicLong IDS = new AtomicLong();

    private Deliveries() {
    }

    static Delivery.Leased leased(Job job, long deliveryCount) {
        return new Delivery.Leased(job.queue(), nextId(), deliveryCount, job, 0);
    }

    /** A suspect: delivered before, {@code isolated} of its deliveries ran alone and never finished. */
    static Delivery.Leased suspect(Job job, long isolated) {
        return new Delivery.Leased(job.queue(), nextId(), isolated + 2, job, isolated);
    }

    static Delivery.Leased leased(String jobId) {
        return leased(Job.create(JobId.of(jobId), QUEUE, "{}", NOW), 1);
    }

    static DeliveryId nextId() {
        return new DeliveryId(IDS.incrementAndGet() + "-0");
    }
}
