package dev.baton.bootstrap.faults;

import java.util.Map;
import java.util.TreeMap;

/** How many faults of each kind a run injected (and observed, like kills that hit the commit-to-ack window). */
final class FaultTally {
    private final Map<String, Long> counts = new TreeMap<>();

    synchronized void count(String kind) {
        counts.merge(kind, 1L, Long::sum);
    }

    synchronized long get(String kind) {
        return counts.getOrDefault(kind, 0L);
    }

    synchronized long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public synchronized String toString() {
        return counts.toString();
    }
}
