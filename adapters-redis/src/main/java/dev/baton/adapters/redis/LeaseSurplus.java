package dev.baton.adapters.redis;

import dev.baton.application.port.out.Delivery;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Entries that a lease on several partitions received beyond its max (each partition's read asks for its share, so a
 * round may deliver more): they are pending for the consumer already, so they are handed out by its next lease.
 */
final class LeaseSurplus {
    /** Whose surplus: one consumer's on one queue. */
    record Slot(QueueName queue, ConsumerName consumer) {
    }

    private final Map<Slot, Deque<Delivery>> kept = new ConcurrentHashMap<>();

    /** Up to {@code max} of the slot's surplus, oldest first, removed from it. */
    List<Delivery> take(Slot slot, int max) {
        Deque<Delivery> deliveries = kept.get(slot);
        if (deliveries == null) {
            return List.of();
        }
        List<Delivery> taken = new ArrayList<>();
        synchronized (deliveries) {
            while (taken.size() < max && !deliveries.isEmpty()) {
                taken.add(deliveries.poll());
            }
        }
        return taken;
    }

    void keep(Slot slot, List<Delivery> deliveries) {
        Deque<Delivery> slotDeliveries = kept.computeIfAbsent(slot, s -> new ArrayDeque<>());
        synchronized (slotDeliveries) {
            slotDeliveries.addAll(deliveries);
        }
    }

    /** The first {@code max} deliveries; the rest are kept for the consumer's next lease. */
    List<Delivery> atMost(Slot slot, List<Delivery> leased, int max) {
        if (leased.size() > max) {
            keep(slot, leased.subList(max, leased.size()));
            return List.copyOf(leased.subList(0, max));
        }
        return leased;
    }
}
