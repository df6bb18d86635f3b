package dev.baton.application.service.worker;

import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's consumer name while it runs: claimed at its start, so that no other live worker shares it (the name
 * asked for, or the first numbered one free), and given back at its stop. At the claim, what earlier runs under the
 * name asked for left in the worker's queues and that owns nothing is removed, so restarts do not pile up consumers.
 */
final class ConsumerClaim {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerClaim.class);

    private final QueueMaintenance maintenance;
    private final ConsumerName name;
    private final boolean held;

    private ConsumerClaim(QueueMaintenance maintenance, ConsumerName name, boolean held) {
        this.maintenance = maintenance;
        this.name = name;
        this.held = held;
    }

    /**
     * Claims {@code wanted}; a transport failure leaves the worker under {@code wanted} unclaimed (logged), so that
     * a worker started while its server is away still starts.
     */
    static ConsumerClaim claim(QueueMaintenance maintenance, ConsumerName wanted, List<QueueName> queues) {
        ConsumerName name;
        try {
            name = maintenance.claimConsumer(wanted);
        } catch (RuntimeException e) {
            LOG.warn("could not claim consumer name {}: running under it unclaimed, so another worker may take it too: "
                    + "{}", wanted, e.toString());
            return new ConsumerClaim(maintenance, wanted, false);
        }
        if (!name.equals(wanted)) {
            LOG.warn("consumer name {} is held by another live worker: this worker is consumer {}", wanted, name);
        }
        for (QueueName queue : queues) {
            try {
                List<ConsumerName> removed = maintenance.removeStaleConsumers(queue, wanted);
                if (!removed.isEmpty()) {
                    LOG.info("removed stale consumers queue={} consumers={}", queue, removed);
                }
            } catch (RuntimeException e) {
                // the housekeeping loop removes them once idle for long
                LOG.warn("could not remove stale consumers of {} queue={}: {}", wanted, queue, e.toString());
            }
        }
        return new ConsumerClaim(maintenance, name, true);
    }

    ConsumerName name() {
        return name;
    }

    /** Gives the name back; a failure is logged (the name is freed when the process's connection ends). */
    void release() {
        if (!held) {
            return;
        }
        try {
            maintenance.releaseConsumer(name);
        } catch (RuntimeException e) {
            LOG.warn("could not release consumer name {}: {}", name, e.toString());
        }
    }
}
