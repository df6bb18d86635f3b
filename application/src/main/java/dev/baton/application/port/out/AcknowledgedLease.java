package dev.baton.application.port.out;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@link JobLeases#acknowledgeAndLease} did: the lease, and whether the acknowledgement sent in front of it
 * failed (then its entries may or may not have left the pending list, as when {@link JobLeases#acknowledge} throws).
 */
public record AcknowledgedLease(Lease lease, Optional<RuntimeException> acknowledgementFailure) {
    public AcknowledgedLease {
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(acknowledgementFailure, "acknowledgementFailure");
    }
}
