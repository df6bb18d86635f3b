package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.JobLeases;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Marks the held deliveries whose jobs an operator cancelled. As deliveries are dispatched, whatever brought them (a
 * lease, a reclaim, a resumed own entry or a promoted retry), the dispatcher has the cancelled ones marked: as their
 * lease told, or in one read per queue for all that came together. A marked delivery is acknowledged without running,
 * and its running handler sees {@code JobContext.cancelled()} ({@link CancelWatch}).
 */
final class CancelMarks {
    private final JobLeases leases;

    CancelMarks(JobLeases leases) {
        this.leases = leases;
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
            if (isAmong(one, cancelled)) {
                one.cancel(now);
            }
        }
    }

    static boolean isAmong(HeldDelivery one, Set<JobId> cancelled) {
        return one.delivery() instanceof Delivery.Leased leased && cancelled.contains(leased.job().id());
    }

    /** Which of these deliveries' jobs are cancelled. @throws RuntimeException the transport's failure */
    Set<JobId> among(Collection<HeldDelivery> deliveries) {
        Set<JobId> cancelled = new HashSet<>();
        jobsByQueue(deliveries).forEach((queue, jobs) -> cancelled.addAll(leases.cancelled(queue, jobs)));
        return cancelled;
    }

    private static Map<QueueName, List<JobId>> jobsByQueue(Collection<HeldDelivery> deliveries) {
        return deliveries.stream()
                .map(HeldDelivery::delivery)
                .collect(Collectors.groupingBy(Delivery::queue,
                        Collectors.collectingAndThen(Collectors.toList(), Delivery::jobIdsOf)));
    }
}
