package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.RedisValues.number;
import static dev.baton.adapters.redis.Utf8.bytes;

import dev.baton.adapters.redis.LuaScripts.Script;
import dev.baton.application.port.out.AcknowledgedLease;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.Lease;
import dev.baton.application.port.out.TransportException;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import io.lettuce.core.Consumer;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands out entries to a consumer: new ones with XREADGROUP (blocking on a connection of the calling thread's own),
 * and, when a consumer starts, those still pending for it with a script. A lease tells which of its jobs are
 * cancelled: on a queue of one partition, an {@code EXISTS} of the cancels goes right behind the read, in the same
 * slot and on the same connection, so Redis runs it just after the read; only when the queue has cancels at all does a
 * {@code ZMSCORE} follow. So a lease is one round trip: the cancels need no call of their own.
 */
final class Leasing {
    private static final Logger LOG = LoggerFactory.getLogger(Leasing.class);
    /**
     * A blocking lease on several partitions waits on all of them side by side, in rounds of at most this long: a
     * round ends when every read has answered, so this bounds the extra wait after the first job arrives.
     */
    private static final Duration BLOCK_ROUND = Duration.ofMillis(100);

    private final Link connection;
    private final BlockingReads blockingReads;
    private final LuaScripts scripts;
    private final Partitions partitions;
    private final Deliveries deliveries;
    private final Replies replies;
    private final Duration commandTimeout;
    private final JobCancels cancels;
    private final LeaseSurplus surplus = new LeaseSurplus();
    /** Which partition the next lease on several partitions asks first: the remainder of a share goes round. */
    private final AtomicInteger rotation = new AtomicInteger();

    Leasing(Link connection, BlockingReads blockingReads, LuaScripts scripts, Partitions partitions,
            Deliveries deliveries, Replies replies, Duration commandTimeout, JobCancels cancels) {
        this.connection = connection;
        this.blockingReads = blockingReads;
        this.scripts = scripts;
        this.partitions = partitions;
        this.deliveries = deliveries;
        this.replies = replies;
        this.commandTimeout = commandTimeout;
        this.cancels = cancels;
    }

    Lease lease(QueueName queue, ConsumerName consumer, int max, Duration block) {
        QueueLayout layout = partitions.layout("lease", queue);
        if (layout.partitions() == 1) {
            return partitions.withGroup("lease", queue, () -> leaseOne(layout.partition(0), consumer, max, block));
        }
        List<Delivery> leased = partitions.withGroup("lease", queue,
                () -> leasePartitioned(layout, consumer, max, block));
        // the cancels live in the queue's slot, apart from its partitions'
        return evenIfStopping(() -> withCancels(queue, leased));
    }

    private Lease leaseOne(QueueKeys keys, ConsumerName consumer, int max, Duration block) {
        BlockingReads.Reader reader = blockingReads.forCurrentThread(keys.partition());
        Supplier<List<Delivery>> read = blockingRead(reader, keys, consumer, max, block);
        RedisFuture<Long> anyCancels = reader.link().async().exists(keys.namespace().cancelled(keys.queue()));
        List<Delivery> leased = read.get();
        return evenIfStopping(() -> {
            long cancelsThere = replies.get(anyCancels); // its reply follows the read's on the same connection
            if (leased.isEmpty()) {
                return Lease.empty();
            }
            return cancelsThere == 0 ? Lease.noneCancelled(leased) : withCancels(keys.queue(), leased);
        });
    }

    /**
     * Acknowledges {@code ids} and leases without waiting, on a queue of one partition in one round trip: the
     * acknowledgement's scripts go on the reading connection just in front of the read, and Redis answers them
     * together. Empty for a queue of several partitions, whose reads go to several places: there the two go apart.
     */
    Optional<AcknowledgedLease> acknowledgeAndLease(QueueName queue, Collection<DeliveryId> ids, ConsumerName consumer,
                                                    int max) {
        QueueLayout layout = partitions.layout("lease", queue);
        if (layout.partitions() != 1) {
            return Optional.empty();
        }
        QueueKeys keys = layout.partition(0);
        return Optional.of(partitions.withGroup("lease", queue, () -> {
            RedisClusterAsyncCommands<byte[], byte[]> async =
                    blockingReads.forCurrentThread(keys.partition()).link().async();
            List<CompletableFuture<Long>> acknowledged = IdBatches.of(layout.byPartition(ids)
                    .getOrDefault(keys, List.of())).stream()
                    .map(batch -> scripts.<Long>runAsync(async, Script.ACKNOWLEDGE, ScriptOutputType.INTEGER,
                            PendingEntries.acknowledgementKeys(keys), PendingEntries.acknowledgementArgs(keys, batch)))
                    .toList();
            Lease lease = leaseOne(keys, consumer, max, Duration.ZERO);
            return new AcknowledgedLease(lease, failureOf(queue, acknowledged));
        }));
    }

    /**
     * Their replies come before the read's on the same connection (after it only when a script had to be loaded
     * again), so this rarely waits.
     */
    private Optional<RuntimeException> failureOf(QueueName queue, List<CompletableFuture<Long>> acknowledged) {
        long deadline = System.nanoTime() + commandTimeout.toNanos();
        try {
            acknowledged.forEach(reply -> Calls.call("acknowledge", queue,
                    () -> replies.getEvenIfInterrupted(reply, deadline)));
            return Optional.empty();
        } catch (TransportException e) {
            return Optional.of(e);
        }
    }

    /**
     * Finishes a lease whose entries were read, even when a stop interrupted the read: the interrupt is set aside
     * meanwhile and kept for the caller, so that what the read took is handed out rather than left pending.
     */
    private static Lease evenIfStopping(Supplier<Lease> finish) {
        boolean stopping = Thread.interrupted();
        try {
            return finish.get();
        } finally {
            if (stopping) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private Lease withCancels(QueueName queue, List<Delivery> leased) {
        return new Lease(leased, cancels.cancelled(queue, Delivery.jobIdsOf(leased)));
    }

    /**
     * Starts a blocking read of new entries on {@code reader}, the calling thread's connection for the partition; the
     * supplier waits for its reply. When the caller is interrupted meanwhile (a worker stopping), the read is ended in
     * Redis and its reply still awaited: entries it took are returned, with the thread's interrupt flag set, rather
     * than left pending for a consumer that has stopped reading.
     */
    private Supplier<List<Delivery>> blockingRead(BlockingReads.Reader reader, QueueKeys keys, ConsumerName consumer,
                                                  int count, Duration block) {
        XReadArgs args = XReadArgs.Builder.count(count);
        if (!block.isZero()) {
            args.block(Math.max(1, block.toMillis()));
        }
        // longer than BLOCK: a read cut short by the client would still deliver, into the pending list only
        Duration timeout = commandTimeout.plus(block);
        reader.link().stateful().setTimeout(timeout);
        RedisFuture<List<StreamMessage<byte[], byte[]>>> read = readNew(reader.link().async(), keys, consumer, args);
        long deadline = System.nanoTime() + timeout.toNanos();
        return () -> {
            try {
                return deliveries.firstDeliveries(keys, replies.get(read, deadline));
            } catch (RedisCommandInterruptedException e) {
                Thread.interrupted(); // cleared while the read is ended, kept by the wait for its reply
                blockingReads.unblock(reader, connection);
                Thread.currentThread().interrupt();
                return deliveries.firstDeliveries(keys, replies.getEvenIfInterrupted(read, deadline));
            }
        };
    }

    /**
     * Leases from several partitions: non-blocking reads first, on all partitions at once, each asking for its share
     * of what is missing (the first partitions in turn get the remainder). A partition that gives less than asked is
     * drained; the rest are asked again until the lease is full. When none had anything, blocking reads on every
     * partition at once, in rounds.
     */
    private List<Delivery> leasePartitioned(QueueLayout layout, ConsumerName consumer, int max, Duration block) {
        LeaseSurplus.Slot slot = new LeaseSurplus.Slot(layout.queue(), consumer);
        List<Delivery> leased = new ArrayList<>(surplus.take(slot, max));
        int start = Math.floorMod(rotation.getAndIncrement(), layout.partitions());
        List<QueueKeys> live = new ArrayList<>();
        for (int i = 0; i < layout.partitions(); i++) {
            live.add(layout.partition((start + i) % layout.partitions()));
        }
        RedisException failed = null;
        // every round fills the lease or drains (or loses) a partition
        while (leased.size() < max && !live.isEmpty()) {
            int missing = max - leased.size();
            Map<QueueKeys, Integer> asked = new LinkedHashMap<>();
            Map<QueueKeys, RedisFuture<List<StreamMessage<byte[], byte[]>>>> reads = new LinkedHashMap<>();
            for (int i = 0; i < live.size(); i++) {
                int share = missing / live.size() + (i < missing % live.size() ? 1 : 0);
                if (share > 0) {
                    QueueKeys keys = live.get(i);
                    asked.put(keys, share);
                    reads.put(keys, readNew(connection.async(), keys, consumer, XReadArgs.Builder.count(share)));
                }
            }
            for (Map.Entry<QueueKeys, RedisFuture<List<StreamMessage<byte[], byte[]>>>> read : reads.entrySet()) {
                List<StreamMessage<byte[], byte[]>> messages;
                try {
                    // an entry a read took is the consumer's: its reply is awaited even by a worker stopping
                    messages = replies.getEvenIfInterrupted(read.getValue(), System.nanoTime()
                            + commandTimeout.toNanos());
                } catch (RedisException e) {
                    failed = failed == null ? e : failed;
                    live.remove(read.getKey());
                    continue;
                }
                leased.addAll(deliveries.firstDeliveries(read.getKey(), messages));
                if (messages.size() < asked.get(read.getKey())) {
                    live.remove(read.getKey());
                }
            }
        }
        if (failed != null) {
            return partial(slot, leased, max, failed);
        }
        long deadline = System.nanoTime() + block.toNanos();
        // each partition's read asks for its share, so a round delivers at most max + partitions - 1 entries
        int share = (max + layout.partitions() - 1) / layout.partitions();
        while (leased.isEmpty() && deadline - System.nanoTime() >= TimeUnit.MILLISECONDS.toNanos(1)
                && !Thread.currentThread().isInterrupted()) {
            Duration round = Duration.ofNanos(Math.min(deadline - System.nanoTime(), BLOCK_ROUND.toNanos()));
            List<Supplier<List<Delivery>>> reads = layout.all().stream()
                    .map(keys -> blockingRead(blockingReads.forCurrentThread(keys.partition()), keys, consumer,
                            share, round)).toList();
            for (Supplier<List<Delivery>> read : reads) {
                try {
                    leased.addAll(read.get());
                } catch (RedisException e) {
                    failed = failed == null ? e : failed;
                }
            }
            if (failed != null) {
                return partial(slot, leased, max, failed);
            }
        }
        return surplus.atMost(slot, leased, max);
    }

    /**
     * A lease on which some partitions failed (their master is down, say): what the others delivered is handed out,
     * so a failover of one master does not stop the queue. Nothing delivered, or a missing group (recreated by the
     * caller), is the failure.
     */
    private List<Delivery> partial(LeaseSurplus.Slot slot, List<Delivery> leased, int max, RedisException failed) {
        if (leased.isEmpty() || String.valueOf(failed.getMessage()).contains("NOGROUP")) {
            // what the other partitions delivered is the consumer's now: hand it out next time
            surplus.keep(slot, leased);
            throw failed;
        }
        LOG.warn("Lease on queue {} went on without the partitions that failed: {}", slot.queue(),
                failed.getMessage());
        return surplus.atMost(slot, leased, max);
    }

    @SuppressWarnings("unchecked") // Lettuce takes the stream offsets as generic varargs
    private static RedisFuture<List<StreamMessage<byte[], byte[]>>> readNew(
            RedisClusterAsyncCommands<byte[], byte[]> async, QueueKeys keys, ConsumerName consumer, XReadArgs args) {
        return async.xreadgroup(Consumer.from(keys.group(), bytes(consumer.value())), args,
                StreamOffset.lastConsumed(keys.stream()));
    }

    List<Delivery> leaseOwnPending(QueueName queue, ConsumerName consumer, int max) {
        QueueLayout layout = partitions.layout("lease own pending", queue);
        return partitions.withGroup("lease own pending", queue, () -> {
            List<Delivery> leased = new ArrayList<>();
            for (QueueKeys keys : layout.all()) {
                if (leased.size() == max) {
                    break;
                }
                List<Object> entries = scripts.run(Script.LEASE_OWN_PENDING, ScriptOutputType.MULTI,
                        new byte[][] {keys.stream(), keys.isolated()}, keys.group(), bytes(consumer.value()),
                        number(max - leased.size()));
                for (Object item : entries) {
                    List<?> entry = (List<?>) item;
                    // an entry trimmed while pending has no fields: it stays pending, reclaimAbandoned reports it
                    if (entry.get(1) != null) {
                        leased.add(deliveries.redelivery(keys, entry));
                    }
                }
            }
            return leased;
        });
    }
}
