package dev.baton.application.service.worker;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the worker ended one delivery it held; every delivery it takes in ends in exactly one of these, and
 * {@link InFlight#end} alone turns them into slots given back. Java 17 has no switch over sealed types, so the endings
 * are an enum: a switch expression over it names every one, and the compiler checks that none is missing.
 */
enum Ending {
    /** Its end is recorded and it waits for its acknowledgement: its slot is free, it stays held until then. */
    HANDED_OVER,
    /** Moved in the transport by this worker: retried, snoozed, released, dead-lettered or acknowledged. */
    MOVED,
    /** Left pending: its redelivery, after the lease, asks the ledger again. */
    LEFT_PENDING,
    /** Not this worker's to end any more: its lease was lost, or it was abandoned at stop. */
    NOT_OURS;

    /** Every one of {@code deliveries} ended this way, in their order. */
    Map<HeldDelivery, Ending> ofAll(Collection<HeldDelivery> deliveries) {
        Map<HeldDelivery, Ending> endings = new LinkedHashMap<>();
        deliveries.forEach(held -> endings.put(held, this));
        return endings;
    }
}
