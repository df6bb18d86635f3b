package dev.baton.application.port.out;

import java.util.List;

/**
 * The result of taking over abandoned entries.
 *
 * @param deliveries entries now leased to the reclaiming consumer, with their delivery counts
 * @param vanished   ids that were pending but whose stream data is gone (trimmed or deleted); the transport removed
 *                   them from the pending list, the caller reports them
 */
public record Reclaimed(List<Delivery> deliveries, List<DeliveryId> vanished) {
    public static final Reclaimed NONE = new Reclaimed(List.of(), List.of());

    public Reclaimed {
        deliveries = List.copyOf(deliveries);
        vanished = List.copyOf(vanished);
    }
}
