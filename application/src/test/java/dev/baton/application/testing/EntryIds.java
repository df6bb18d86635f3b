package dev.baton.application.testing;

import java.time.Instant;

/** Hands out increasing ids from the clock, like {@code XADD *}: never backwards, even if the clock is. */
final class EntryIds {
    private EntryId last = EntryId.ZERO;

    EntryId next(Instant now) {
        long millis = now.toEpochMilli();
        last = millis > last.millis() ? new EntryId(millis, 0) : new EntryId(last.millis(), last.sequence() + 1);
        return last;
    }
}
