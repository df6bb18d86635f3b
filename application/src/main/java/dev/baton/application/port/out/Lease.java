package dev.baton.application.port.out;

import dev.baton.domain.JobId;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What one lease brought ({@link JobLeases#lease}): the entries, and which of their jobs an operator had cancelled by
 * the time they were leased, read with them so that a worker need not ask before it runs them.
 *
 * @param cancelled ids of jobs among {@code deliveries} that are cancelled; a subset of their jobs
 */
public record Lease(List<Delivery> deliveries, Set<JobId> cancelled) {
    private static final Lease EMPTY = new Lease(List.of(), Set.of());

    public Lease {
        deliveries = List.copyOf(Objects.requireNonNull(deliveries, "deliveries"));
        cancelled = Set.copyOf(Objects.requireNonNull(cancelled, "cancelled"));
    }

    /** A lease that brought nothing. */
    public static Lease empty() {
        return EMPTY;
    }

    /** Entries none of which is cancelled. */
    public static Lease noneCancelled(List<Delivery> deliveries) {
        return deliveries.isEmpty() ? EMPTY : new Lease(deliveries, Set.of());
    }

    public boolean isEmpty() {
        return deliveries.isEmpty();
    }

    public int size() {
        return deliveries.size();
    }
}
