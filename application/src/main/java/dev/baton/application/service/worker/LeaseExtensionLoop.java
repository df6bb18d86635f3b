package dev.baton.application.service.worker;

import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Extends the leases of every held delivery, so that no other consumer reclaims a job that is still running. A
 * delivery reported lost is marked: its outcome is never acknowledged, retried or dead-lettered by this worker, the
 * ledger already protects its effect. Runs while jobs finish during a graceful stop too: leases must outlive the
 * grace period.
 */
final class LeaseExtensionLoop implements BackgroundLoop<LeaseExtensionLoop.Extended> {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseExtensionLoop.class);

    private final JobLeases leases;
    private final ConsumerName consumer;
    private final InFlight inFlight;
    private final MaintenanceObserver observer;

    LeaseExtensionLoop(JobLeases leases, ConsumerName consumer, InFlight inFlight, MaintenanceObserver observer) {
        this.leases = leases;
        this.consumer = consumer;
        this.inFlight = inFlight;
        this.observer = observer;
    }

    /** What a pass did: the leases it asked to extend, and those it found lost (and marked so) among them. */
    record Extended(int extended, int lost) {
    }

    @Override
    public Extended runOnce() {
        int extended = 0;
        int lostNow = 0;
        for (Map.Entry<QueueName, List<DeliveryId>> held : inFlight.idsByQueue().entrySet()) {
            QueueName queue = held.getKey();
            Set<DeliveryId> lost = leases.extendLeases(queue, consumer, held.getValue());
            extended += held.getValue().size() - lost.size();
            for (DeliveryId id : lost) {
                if (inFlight.find(queue, id).filter(HeldDelivery::loseLease).isPresent()) {
                    lostNow++;
                    observer.leaseLost(queue, id);
                    LOG.warn("lease lost, another consumer owns the job now; its outcome here will not be "
                            + "acknowledged consumer={} queue={} delivery={}", consumer, queue, id);
                }
            }
        }
        return new Extended(extended, lostNow);
    }
}
