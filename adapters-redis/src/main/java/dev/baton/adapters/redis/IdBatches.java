package dev.baton.adapters.redis;

import java.util.ArrayList;
import java.util.List;

/**
 * Ids sent a batch per XACK / XDEL / redrive script call: keeps each command, and the time Redis spends in it,
 * small.
 */
final class IdBatches {
    /** Ids per command. */
    static final int SIZE = 200;

    private IdBatches() {
    }

    /** {@code ids} in batches of at most {@link #SIZE}, in order. */
    static <T> List<List<T>> of(List<T> ids) {
        List<List<T>> batches = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += SIZE) {
            batches.add(ids.subList(from, Math.min(ids.size(), from + SIZE)));
        }
        return batches;
    }
}
