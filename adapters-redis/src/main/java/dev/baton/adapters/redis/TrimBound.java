package dev.baton.adapters.redis;

import dev.baton.domain.Retention;
import io.lettuce.core.Range;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * How far a trim of one partition's stream goes: up to the retention's cutoff, but never past the oldest entry a
 * consumer group still needs (pending, or not delivered yet), so trimming never removes work. Apart from the
 * commands that read the groups, so that the rule is checked without Redis.
 *
 * @param cutoff entries older than this are past the retention
 * @param needed the oldest entry any consumer group still needs
 */
record TrimBound(EntryId cutoff, EntryId needed) {

    /** The retention's cutoff at {@code now}; empty when it reaches back to the epoch (nothing is old enough). */
    static Optional<EntryId> cutoff(Retention retention, Instant now) {
        long cutoffMs = now.toEpochMilli() - retention.maxAge().toMillis();
        return cutoffMs <= 0 ? Optional.empty() : Optional.of(new EntryId(cutoffMs, 0));
    }

    /**
     * @param ownGroup       whether the stream has our consumer group
     * @param neededByGroups what each of the stream's groups (ours and any other client's) still needs
     */
    static TrimBound of(EntryId cutoff, boolean ownGroup, List<EntryId> neededByGroups) {
        // our group missing: nothing has been delivered to it yet, so it needs everything
        EntryId needed = ownGroup ? neededByGroups.stream().reduce(EntryId::min).orElseThrow() : EntryId.ZERO.next();
        return new TrimBound(cutoff, needed);
    }

    /** The MINID of the XTRIM: every entry below it goes. */
    EntryId minId() {
        return EntryId.min(cutoff, needed);
    }

    /**
     * The entries that the retention would drop but a group still needs; empty when the groups need nothing that
     * old. When the stream holds any of them, the trim was held back.
     */
    Optional<Range<String>> keptByGroups() {
        return needed.compareTo(cutoff) < 0
                ? Optional.of(Range.from(Range.Boundary.including(needed.toString()),
                        Range.Boundary.excluding(cutoff.toString())))
                : Optional.empty();
    }
}
