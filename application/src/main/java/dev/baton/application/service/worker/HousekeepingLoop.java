package dev.baton.application.service.worker;

import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import dev.baton.domain.Retention;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trims acknowledged history older than the retention from the streams, and removes consumers idle for long that own
 * nothing, so that neither grows without bound.
 */
final class HousekeepingLoop implements BackgroundLoop<HousekeepingLoop.Trimmed> {
    private static final Logger LOG = LoggerFactory.getLogger(HousekeepingLoop.class);

    private final QueueMaintenance maintenance;
    private final List<QueueName> queues;
    private final Retention retention;
    private final Duration consumerIdleRemoval;
    private final Clock clock;
    private final MaintenanceObserver observer;

    HousekeepingLoop(QueueMaintenance maintenance, List<QueueName> queues, Retention retention,
                     Duration consumerIdleRemoval, Clock clock, MaintenanceObserver observer) {
        this.maintenance = maintenance;
        this.queues = List.copyOf(queues);
        this.retention = retention;
        this.consumerIdleRemoval = consumerIdleRemoval;
        this.clock = clock;
        this.observer = observer;
    }

    /** What a pass did over all the queues: entries trimmed, and idle consumers removed. */
    record Trimmed(long entries, int idleConsumers) {
    }

    @Override
    public Trimmed runOnce() {
        long entries = 0;
        int idleConsumers = 0;
        for (QueueName queue : queues) {
            TrimOutcome trimmed = maintenance.trim(queue, retention, clock.instant());
            observer.trimmed(queue, trimmed);
            entries += trimmed.removed();
            LOG.debug("trimmed queue={} removed={} heldBack={}", queue, trimmed.removed(), trimmed.heldBack());
            List<ConsumerName> removed = maintenance.removeIdleConsumers(queue, consumerIdleRemoval);
            idleConsumers += removed.size();
            if (!removed.isEmpty()) {
                LOG.info("removed idle consumers queue={} consumers={}", queue, removed);
            }
        }
        return new Trimmed(entries, idleConsumers);
    }
}
