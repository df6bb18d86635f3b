package dev.baton.application.port.out;

import java.util.List;

/**
 * What a trim did.
 *
 * @param removed  entries removed from the stream
 * @param keptFrom where the trim stopped short of the retention, per stream (a partition each): the oldest entry a
 *                 consumer group still needs, behind a backlog or a stuck pending entry. Empty when nothing held the
 *                 trim back
 */
public record TrimOutcome(long removed, List<DeliveryId> keptFrom) {
    public static final TrimOutcome NOTHING = new TrimOutcome(0, List.of());

    public TrimOutcome {
        if (removed < 0) {
            throw new IllegalArgumentException("removed must not be negative, got " + removed);
        }
        keptFrom = List.copyOf(keptFrom);
    }

    /** True when the safety bound (the oldest entry a consumer group still needs) stopped the trim short. */
    public boolean heldBack() {
        return !keptFrom.isEmpty();
    }
}
