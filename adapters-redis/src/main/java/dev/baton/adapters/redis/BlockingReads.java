package dev.baton.adapters.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.UnblockType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Connections used only for blocking XREADGROUP, one per calling thread and partition: a blocked read would
 * otherwise hold up every command queued behind it on a shared connection (and their timeouts would fire on the
 * read), and the reads of one lease on several partitions must wait side by side.
 *
 * <p>A read its caller stops waiting for still blocks in Redis, and whatever it takes then becomes pending for a
 * consumer that never sees it. So a stopped read is ended in Redis ({@link #unblock}) where the server is known: on a
 * single server (Sentinel's included) by {@code CLIENT UNBLOCK} with the reader's client id, which this class keeps.
 */
final class BlockingReads implements AutoCloseable {
    private record Lane(Thread thread, int partition) {
    }

    /** A reading connection and, on a single server, its client id there (empty once it may have changed). */
    record Reader(Link link, OptionalLong clientId) {
    }

    private final Connector connector;
    private final Map<Lane, Reader> byLane = new ConcurrentHashMap<>();

    BlockingReads(Connector connector) {
        this.connector = connector;
    }

    Reader forCurrentThread(int partition) {
        byLane.forEach((lane, reader) -> {
            // only the caller that removes it closes it: several threads may find the same ended lane
            if (!lane.thread().isAlive() && byLane.remove(lane, reader)) {
                reader.link().stateful().closeAsync();
            }
        });
        Lane lane = new Lane(Thread.currentThread(), partition);
        Reader known = byLane.get(lane); // a lane is its thread's own: no other thread adds or changes it
        if (known != null && (known.clientId().isPresent() || !isSingleServer(known.link()))) {
            return known;
        }
        Link link = known == null ? connector.connect() : known.link();
        Reader reader = new Reader(link, clientIdOf(link));
        byLane.put(lane, reader);
        return reader;
    }

    /**
     * Ends the read blocked on {@code reader} as if its time were up, from {@code other}, a connection to the same
     * server: the read then answers with what it had taken, if anything. On a cluster this does nothing (the read ends
     * at its block time). When Redis knows no such blocked client (the reader reconnected with a new id, say), the
     * next read asks for the id again.
     */
    void unblock(Reader reader, Link other) {
        if (reader.clientId().isEmpty() || !(other.stateful() instanceof StatefulRedisConnection<byte[], byte[]> one)) {
            return;
        }
        try {
            if (one.sync().clientUnblock(reader.clientId().getAsLong(), UnblockType.TIMEOUT) == 1) {
                return;
            }
        } catch (RedisException e) {
            return; // Redis is gone: so is the read, or it ends at its block time
        }
        byLane.replaceAll((lane, known) -> known == reader ? new Reader(known.link(), OptionalLong.empty()) : known);
    }

    private static boolean isSingleServer(Link link) {
        return link.stateful() instanceof StatefulRedisConnection;
    }

    /** Empty on a cluster, or when Redis did not answer: the next read asks again. */
    private static OptionalLong clientIdOf(Link link) {
        if (!(link.stateful() instanceof StatefulRedisConnection<byte[], byte[]> one)) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(one.sync().clientId());
        } catch (RedisException e) {
            return OptionalLong.empty();
        }
    }

    @Override
    public void close() {
        byLane.values().forEach(reader -> reader.link().close());
        byLane.clear();
    }
}
