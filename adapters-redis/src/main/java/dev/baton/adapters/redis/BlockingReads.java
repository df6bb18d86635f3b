package dev.baton.adapters.redis;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Connections used only for blocking XREADGROUP, one per calling thread and partition: a blocked read would
 * otherwise hold up every command queued behind it on a shared connection (and their timeouts would fire on the
 * read), and the reads of one lease on several partitions must wait side by side.
 */
final class BlockingReads implements AutoCloseable {
    private record Lane(Thread thread, int partition) {
    }

    private final Connector connector;
    private final Map<Lane, Link> byLane = new ConcurrentHashMap<>();

    BlockingReads(Connector connector) {
        this.connector = connector;
    }

    Link forCurrentThread(int partition) {
        byLane.forEach((lane, link) -> {
            // only the caller that removes it closes it: several threads may find the same ended lane
            if (!lane.thread().isAlive() && byLane.remove(lane, link)) {
                link.stateful().closeAsync();
            }
        });
        return byLane.computeIfAbsent(new Lane(Thread.currentThread(), partition), lane -> connector.connect());
    }

    @Override
    public void close() {
        byLane.values().forEach(Link::close);
        byLane.clear();
    }
}
