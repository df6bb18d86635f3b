package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.JobLeases;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator's cancels as this worker honours them. As deliveries are dispatched, whatever brought them (a lease, a
 * reclaim, a resumed own entry or a promoted retry), the dispatcher has the cancelled ones marked
 * ({@link #markCancelled}, one read per queue for all that came together); those are acknowledged without running. As a loop ({@link #CHECK_INTERVAL}), it asks
 * the same for the jobs running now, marks the cancelled ones (their handler sees {@code JobContext.cancelled()}) and
 * interrupts the handlers whose {@code grace} has passed since.
 */
final class Cancels implements BackgroundLoop {
    static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(Cancels.class);

    private final JobLeases leases;
    private final InFlight inFlight;
    private final Duration grace;
    private final ConsumerName consumer;

    Cancels(JobLeases leases, InFlight inFlight, Duration grace, ConsumerName consumer) {
        this.leases = leases;
        this.inFlight = inFlight;
        this.grace = grace;
        this.consumer = consumer;
    }

    /**
     * Marks the deliveries whose jobs an operator cancelled, in one read per queue for all of them: the worker asks
     * once per lease, not once per job. @throws RuntimeException the transport's failure (nothing is marked)
     */
    void markCancelled(Collection<HeldDelivery> deliveries) {
        mark(deliveries, among(deliveries));
    }

    /** Marks the deliveries whose jobs are among {@code cancelled}, as a lease told them. */
    static void mark(Collection<HeldDelivery> deliveries, Set<JobId> cancelled) {
        if (cancelled.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        for (HeldDelivery one : deliveries) {
            if (one.delivery() instanceof Delivery.Leased leased && cancelled.contains(leased.job().id())) {
                one.cancel(now);
            }
        }
    }

    /** Which of these deliveries' jobs are cancelled. @throws RuntimeException the transport's failure */
    private Set<JobId> among(Collection<HeldDelivery> deliveries) {
        Set<JobId> cancelled = new HashSet<>();
        jobsByQueue(deliveries).forEach((queue, jobs) -> cancelled.addAll(leases.cancelled(queue, jobs)));
        return cancelled;
    }

    @Override
    public void runOnce() {
        List<HeldDelivery> held = inFlight.all();
        Set<JobId> cancelled = among(held.stream().filter(one -> !one.isCancelled()).toList());
        long now = System.nanoTime();
        for (HeldDelivery one : held) {
            if (one.delivery() instanceof Delivery.Leased leased && cancelled.contains(leased.job().id())) {
                one.cancel(now);
                LOG.info("job cancelled while it runs: its handler sees cancelled(), interrupted after {} consumer={}"
                        + " {} job={}", grace, consumer, one, leased.job().id());
            } else if (one.cancelledLongerThan(grace, now)) {
                one.interruptHandler();
            }
        }
    }

    private static Map<QueueName, List<JobId>> jobsByQueue(Collection<HeldDelivery> deliveries) {
        return deliveries.stream()
                .map(HeldDelivery::delivery)
                .collect(Collectors.groupingBy(Delivery::queue,
                        Collectors.collectingAndThen(Collectors.toList(), Delivery::jobIdsOf)));
    }
}
