package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Utf8.ascii;
import static dev.baton.adapters.redis.Utf8.bytes;

import dev.baton.adapters.redis.LuaScripts.Script;
import dev.baton.adapters.redis.QueueLayout.Located;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.application.port.out.TransportException;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.ConsumerStats;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import dev.baton.domain.Retention;
import dev.baton.domain.StoredDeadLetter;
import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.XTrimArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.models.stream.PendingMessage;
import io.lettuce.core.models.stream.PendingMessages;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link StreamTransport} on Redis Streams; the key layout and wire protocol are described in docs/REDIS.md,
 * partitioned queues in docs/SCALING.md. Every operation on a queue works on each of its partitions (one hash slot
 * each) and sums up; a queue with one partition uses exactly the keys and ids of an unpartitioned one.
 */
final class RedisStreamTransport implements JobPublisher, JobLeases, QueueMaintenance, QueueAdministration {
    private static final Logger LOG = LoggerFactory.getLogger(RedisStreamTransport.class);
    /** Ids per XACK / XDEL / redrive script call: keeps each command, and the time Redis spends in it, small. */
    private static final int BATCH = 200;
    /** How often a pipelined batch still waiting for replies is flushed again (see {@code getPipelined}). */
    private static final long REFLUSH_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** How many entries {@link #find} looks at per place (stream, delayed set, dead letters) and partition. */
    static final int FIND_SCAN_LIMIT = 10_000;
    /** Pending entries looked at for the oldest pending idle time in {@link #stats}. */
    private static final int STATS_PENDING_SAMPLE = 1_000;
    /** The most partitions a queue may have. */
    static final int MAX_PARTITIONS = 1024;
    /**
     * A blocking lease on several partitions waits on all of them side by side, in rounds of at most this long: a
     * round ends when every read has answered, so this bounds the extra wait after the first job arrives.
     */
    static final Duration BLOCK_ROUND = Duration.ofMillis(100);

    private record LeaseSlot(QueueName queue, ConsumerName consumer) {
    }

    private final Link connection;
    private final Link pipeline;
    private final RedisClusterCommands<byte[], byte[]> redis;
    private final BlockingReads blockingReads;
    private final LuaScripts scripts;
    private final WireMapping wire;
    private final String groupSuffix;
    private final boolean groupStartsAtEnd;
    private final Duration commandTimeout;
    private final Clock clock;
    private final Set<QueueName> declared = ConcurrentHashMap.newKeySet();
    /** Partition counts read from Redis, and those this process declared (a later mismatch is an error). */
    private final Map<QueueName, Integer> partitionCounts = new ConcurrentHashMap<>();
    private final Map<QueueName, Integer> declaredCounts = new ConcurrentHashMap<>();
    /** Entries a blocking round on several partitions delivered beyond the lease's max: handed out next time. */
    private final Map<LeaseSlot, Deque<Delivery>> surplus = new ConcurrentHashMap<>();
    private final AtomicInteger rotation = new AtomicInteger();

    /** @param pipeline a connection that does not flush automatically, for batches; used only here */
    RedisStreamTransport(Link connection, Link pipeline, BlockingReads blockingReads, LuaScripts scripts,
                         WireMapping wire, RedisAdapter.Config config, Clock clock) {
        this.connection = connection;
        this.pipeline = pipeline;
        this.redis = connection.sync();
        this.blockingReads = blockingReads;
        this.scripts = scripts;
        this.wire = wire;
        this.groupSuffix = config.groupSuffix();
        this.groupStartsAtEnd = config.groupStartsAtEnd();
        this.commandTimeout = config.commandTimeout();
        this.clock = clock;
    }

    // ---------------------------------------------------------------- partitions

    /**
     * Declares that {@code queue} has {@code partitions} partitions: recorded in Redis on the first declaration,
     * checked on every later one (and by every later {@link #declare}).
     *
     * @throws InvalidValueException when the queue already has another partition count
     */
    void declarePartitions(QueueName queue, int partitions) {
        if (partitions < 1 || partitions > MAX_PARTITIONS) {
            throw new InvalidValueException("a queue has 1.." + MAX_PARTITIONS + " partitions, got " + partitions);
        }
        QueueKeys unpartitioned = QueueKeys.of(queue, groupSuffix, 0, 1);
        Long recorded = call("declare partitions", queue, () -> scripts.run(Script.DECLARE_PARTITIONS,
                ScriptOutputType.INTEGER, new byte[][] {QueueKeys.meta(queue), unpartitioned.stream(),
                        unpartitioned.delayed(), unpartitioned.dead()}, number(partitions)));
        if (recorded != partitions) {
            throw mismatch(queue, recorded.intValue(), partitions);
        }
        declaredCounts.put(queue, partitions);
        partitionCounts.put(queue, partitions);
        declared.remove(queue);
        declare(queue);
    }

    /** The queue's partition count as recorded in Redis (1 when none is recorded). */
    int partitions(QueueName queue) {
        return refreshLayout("read partitions", queue).partitions();
    }

    /**
     * Records a new partition count for a queue that holds no work: every partition empty of undelivered, pending,
     * delayed and dead entries. The old partitions' keys (acknowledged history) are deleted. Producers and workers of
     * the queue must be stopped while it runs (they keep the count they read).
     *
     * @throws InvalidValueException when the queue still holds work
     */
    void repartition(QueueName queue, int partitions) {
        if (partitions < 1 || partitions > MAX_PARTITIONS) {
            throw new InvalidValueException("a queue has 1.." + MAX_PARTITIONS + " partitions, got " + partitions);
        }
        QueueLayout old = refreshLayout("repartition", queue);
        QueueStats stats = stats(queue);
        List<Integer> undelivered = call("repartition", queue, () -> old.all().stream()
                .filter(this::hasUndelivered).map(QueueKeys::partition).toList());
        if (!undelivered.isEmpty() || stats.pending() > 0 || stats.delayed() > 0 || stats.dead() > 0) {
            throw new InvalidValueException("queue " + queue + " still holds work (undelivered entries in partitions "
                    + undelivered + ", " + stats.pending() + " pending, " + stats.delayed() + " delayed, "
                    + stats.dead() + " dead letters): drain it (and redrive or purge its dead letters) before "
                    + "repartitioning");
        }
        call("repartition", queue, () -> {
            for (QueueKeys keys : old.all()) {
                redis.del(keys.stream(), keys.delayed(), keys.dead());
            }
            if (partitions == 1) {
                redis.del(QueueKeys.meta(queue));
            } else {
                redis.hset(QueueKeys.meta(queue), bytes("partitions"), number(partitions));
            }
            return null;
        });
        LOG.info("Queue {} repartitioned from {} to {} partitions", queue, old.partitions(), partitions);
        declaredCounts.remove(queue);
        partitionCounts.put(queue, partitions);
        declared.remove(queue);
        declare(queue);
    }

    /** True when the partition's stream holds entries its group has not been delivered yet (or has no group). */
    private boolean hasUndelivered(QueueKeys keys) {
        List<StreamMessage<byte[], byte[]>> last = redis.xrevrange(keys.stream(), Range.unbounded(), Limit.from(1));
        if (last.isEmpty()) {
            return false;
        }
        return group(keys).map(group -> EntryId.parse(last.get(0).getId())
                .compareTo(EntryId.parse(text(group.get("last-delivered-id")))) > 0).orElse(true);
    }

    /** The queue's layout; its partition count is read from Redis on first use (failing as {@code operation}). */
    private QueueLayout layout(String operation, QueueName queue) {
        Integer known = partitionCounts.get(queue);
        return known != null ? new QueueLayout(queue, groupSuffix, known) : refreshLayout(operation, queue);
    }

    /** Reads the partition count from Redis; a count different from the one this process declared is an error. */
    private QueueLayout refreshLayout(String operation, QueueName queue) {
        byte[] recorded = call(operation, queue, () -> redis.hget(QueueKeys.meta(queue), bytes("partitions")));
        int partitions = recorded == null ? 1 : Integer.parseInt(ascii(recorded));
        requireDeclaredCount(queue, partitions);
        partitionCounts.put(queue, partitions);
        return new QueueLayout(queue, groupSuffix, partitions);
    }

    private void requireDeclaredCount(QueueName queue, int recorded) {
        Integer expected = declaredCounts.get(queue);
        if (expected != null && expected != recorded) {
            throw mismatch(queue, recorded, expected);
        }
    }

    private static InvalidValueException mismatch(QueueName queue, int recorded, int declared) {
        return new InvalidValueException("queue " + queue + " has " + recorded + " partition(s) in Redis, not the "
                + declared + " declared here: use --partitions " + recorded
                + ", or repartition the drained queue (see docs/SCALING.md)");
    }

    // ---------------------------------------------------------------- producing

    @Override
    public void declare(QueueName queue) {
        QueueLayout layout = refreshLayout("declare", queue);
        call("declare", queue, () -> {
            layout.all().forEach(keys -> createGroup(keys, groupStartsAtEnd ? "$" : "0"));
            declared.add(queue);
            return null;
        });
    }

    private void ensureDeclared(QueueName queue) {
        if (!declared.contains(queue)) {
            declare(queue);
        }
    }

    private void createGroup(QueueKeys keys, String start) {
        try {
            redis.xgroupCreate(StreamOffset.from(keys.stream(), start), keys.group(),
                    new XGroupCreateArgs().mkstream(true));
        } catch (RedisCommandExecutionException e) {
            if (!String.valueOf(e.getMessage()).startsWith("BUSYGROUP")) {
                throw e;
            }
        }
    }

    @Override
    public void publish(Job job) {
        publishAll(List.of(job));
    }

    @Override
    public void publishAll(List<Job> jobs) {
        if (jobs.isEmpty()) {
            return;
        }
        // encode (and so validate) every job before sending any: a bad job must not leave half a batch published
        List<Function<QueueKeys, Function<RedisClusterAsyncCommands<byte[], byte[]>, RedisFuture<?>>>> encoded =
                new ArrayList<>(jobs.size());
        for (Job job : jobs) {
            if (job.notBefore().isPresent()) {
                byte[] member = bytes(wire.delayedMember(job, UUID.randomUUID().toString(), true));
                double due = job.notBefore().get().toEpochMilli();
                encoded.add(keys -> async -> async.zadd(keys.delayed(), due, member));
            } else {
                Object[] fields = encode(wire.publishedFields(job));
                encoded.add(keys -> async -> async.xadd(keys.stream(), fields));
            }
        }
        jobs.stream().map(Job::queue).distinct().forEach(this::ensureDeclared);
        List<Function<RedisClusterAsyncCommands<byte[], byte[]>, RedisFuture<?>>> commands = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            commands.add(encoded.get(i).apply(layout("publish", jobs.get(i).queue()).route(jobs.get(i))));
        }
        call("publish", jobs.get(0).queue(), () -> {
            List<RedisFuture<?>> futures;
            // the batch goes out in one write: the pipeline connection does not flush by itself
            synchronized (pipeline) {
                RedisClusterAsyncCommands<byte[], byte[]> async = pipeline.async();
                futures = commands.stream().<RedisFuture<?>>map(command -> command.apply(async)).toList();
                pipeline.stateful().flushCommands();
            }
            long deadline = System.nanoTime() + commandTimeout.toNanos();
            futures.forEach(future -> getPipelined(future, deadline));
            return null;
        });
    }

    /**
     * Waits for a pipelined reply like {@link #get(RedisFuture, long)}, flushing the pipeline again every
     * {@link #REFLUSH_NANOS} meanwhile. On a cluster, a command for a node whose connection is still being opened can
     * reach that connection after the flush meant for it, and would wait there unsent (Lettuce issue 2420: a fresh
     * {@code baton enqueue}'s first batch then failed with "no reply"); flushing an empty buffer costs nothing.
     */
    private <T> T getPipelined(RedisFuture<T> future, long deadline) {
        try {
            while (!future.await(Math.min(REFLUSH_NANOS, Math.max(0, deadline - System.nanoTime())),
                    TimeUnit.NANOSECONDS) && deadline - System.nanoTime() > 0) {
                synchronized (pipeline) {
                    pipeline.stateful().flushCommands();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisCommandInterruptedException(e);
        }
        return get(future, deadline);
    }

    /** Waits for a reply, at most until {@code deadline} ({@link System#nanoTime()}). */
    private <T> T get(RedisFuture<T> future, long deadline) {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisCommandInterruptedException(e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RedisException redisException
                    ? redisException : new RedisException(e.getCause());
        } catch (TimeoutException e) {
            throw new RedisException("no reply within " + commandTimeout, e);
        }
    }

    /**
     * Deletes the queue's streams (with their consumer group), delayed sets and dead letters, of every partition, and
     * its partition count.
     */
    void delete(QueueName queue) {
        QueueLayout layout = refreshLayout("delete", queue);
        call("delete", queue, () -> {
            // one DEL per partition: on a cluster, one command touches one slot
            layout.all().forEach(keys -> redis.del(keys.stream(), keys.delayed(), keys.dead()));
            return redis.del(QueueKeys.meta(queue));
        });
        declared.remove(queue);
        partitionCounts.remove(queue);
        declaredCounts.remove(queue);
    }

    // ---------------------------------------------------------------- consuming

    @Override
    public List<Delivery> lease(QueueName queue, ConsumerName consumer, int max, Duration block) {
        requirePositive(max);
        if (block.isNegative()) {
            throw new IllegalArgumentException("block must not be negative, got " + block);
        }
        QueueLayout layout = layout("lease", queue);
        if (layout.partitions() == 1) {
            return withGroup("lease", queue, () -> blockingRead(layout.partition(0), consumer, max, block).get());
        }
        return withGroup("lease", queue, () -> leasePartitioned(layout, consumer, max, block));
    }

    /**
     * Starts a blocking read of new entries on the calling thread's connection for the partition; the supplier waits
     * for its reply.
     */
    private Supplier<List<Delivery>> blockingRead(QueueKeys keys, ConsumerName consumer, int count, Duration block) {
        XReadArgs args = XReadArgs.Builder.count(count);
        if (!block.isZero()) {
            args.block(Math.max(1, block.toMillis()));
        }
        Link reader = blockingReads.forCurrentThread(keys.partition());
        // longer than BLOCK: a read cut short by the client would still deliver, into the pending list only
        Duration timeout = commandTimeout.plus(block);
        reader.stateful().setTimeout(timeout);
        RedisFuture<List<StreamMessage<byte[], byte[]>>> read = readNew(reader.async(), keys, consumer, args);
        long deadline = System.nanoTime() + timeout.toNanos();
        return () -> deliveries(keys, get(read, deadline));
    }

    /**
     * Leases from several partitions: non-blocking reads first, on all partitions at once, each asking for its share
     * of what is missing (the first partitions in turn get the remainder). A partition that gives less than asked is
     * drained; the rest are asked again until the lease is full. When none had anything, blocking reads on every
     * partition at once, in rounds.
     */
    private List<Delivery> leasePartitioned(QueueLayout layout, ConsumerName consumer, int max, Duration block) {
        LeaseSlot slot = new LeaseSlot(layout.queue(), consumer);
        List<Delivery> leased = new ArrayList<>(takeSurplus(slot, max));
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
                    messages = get(read.getValue());
                } catch (RedisException e) {
                    failed = failed == null ? e : failed;
                    live.remove(read.getKey());
                    continue;
                }
                leased.addAll(deliveries(read.getKey(), messages));
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
        while (leased.isEmpty() && deadline - System.nanoTime() >= TimeUnit.MILLISECONDS.toNanos(1)) {
            Duration round = Duration.ofNanos(Math.min(deadline - System.nanoTime(), BLOCK_ROUND.toNanos()));
            List<Supplier<List<Delivery>>> reads = layout.all().stream()
                    .map(keys -> blockingRead(keys, consumer, share, round)).toList();
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
        return atMost(slot, leased, max);
    }

    /**
     * A lease on which some partitions failed (their master is down, say): what the others delivered is handed out,
     * so a failover of one master does not stop the queue. Nothing delivered, or a missing group (recreated by the
     * caller), is the failure.
     */
    private List<Delivery> partial(LeaseSlot slot, List<Delivery> leased, int max, RedisException failed) {
        if (leased.isEmpty() || String.valueOf(failed.getMessage()).contains("NOGROUP")) {
            // what the other partitions delivered is the consumer's now: hand it out next time
            keepSurplus(slot, leased);
            throw failed;
        }
        LOG.warn("Lease on queue {} went on without the partitions that failed: {}", slot.queue(),
                failed.getMessage());
        return atMost(slot, leased, max);
    }

    /** The first {@code max} deliveries; the rest are kept for the consumer's next lease. */
    private List<Delivery> atMost(LeaseSlot slot, List<Delivery> leased, int max) {
        if (leased.size() > max) {
            keepSurplus(slot, leased.subList(max, leased.size()));
            return List.copyOf(leased.subList(0, max));
        }
        return leased;
    }

    private List<Delivery> takeSurplus(LeaseSlot slot, int max) {
        Deque<Delivery> kept = surplus.get(slot);
        if (kept == null) {
            return List.of();
        }
        List<Delivery> taken = new ArrayList<>();
        synchronized (kept) {
            while (taken.size() < max && !kept.isEmpty()) {
                taken.add(kept.poll());
            }
        }
        return taken;
    }

    private void keepSurplus(LeaseSlot slot, List<Delivery> deliveries) {
        Deque<Delivery> kept = surplus.computeIfAbsent(slot, s -> new ArrayDeque<>());
        synchronized (kept) {
            kept.addAll(deliveries);
        }
    }

    @SuppressWarnings("unchecked") // Lettuce takes the stream offsets as generic varargs
    private static RedisFuture<List<StreamMessage<byte[], byte[]>>> readNew(
            RedisClusterAsyncCommands<byte[], byte[]> async, QueueKeys keys, ConsumerName consumer, XReadArgs args) {
        return async.xreadgroup(Consumer.from(keys.group(), bytes(consumer.value())), args,
                StreamOffset.lastConsumed(keys.stream()));
    }

    private List<Delivery> deliveries(QueueKeys keys, List<StreamMessage<byte[], byte[]>> messages) {
        return messages.stream().map(message -> delivery(keys, message.getId(), 1, fields(message))).toList();
    }

    private Delivery delivery(QueueKeys keys, String entryId, long deliveryCount, List<byte[]> fields) {
        return wire.delivery(keys.queue(), entryId, new DeliveryId(keys.idOf(entryId)), deliveryCount, fields);
    }

    @Override
    public List<Delivery> leaseOwnPending(QueueName queue, ConsumerName consumer, int max) {
        requirePositive(max);
        QueueLayout layout = layout("lease own pending", queue);
        return withGroup("lease own pending", queue, () -> {
            List<Delivery> deliveries = new ArrayList<>();
            for (QueueKeys keys : layout.all()) {
                if (deliveries.size() == max) {
                    break;
                }
                List<Object> entries = scripts.run(Script.LEASE_OWN_PENDING, ScriptOutputType.MULTI,
                        new byte[][] {keys.stream()}, keys.group(), bytes(consumer.value()),
                        number(max - deliveries.size()));
                for (Object item : entries) {
                    List<?> entry = (List<?>) item;
                    // an entry trimmed while pending has no fields: it stays pending, reclaimAbandoned reports it
                    if (entry.get(1) != null) {
                        deliveries.add(delivery(keys, ascii((byte[]) entry.get(0)), (Long) entry.get(2),
                                fields(entry.get(1))));
                    }
                }
            }
            return deliveries;
        });
    }

    @Override
    public void acknowledge(QueueName queue, Collection<DeliveryId> ids) {
        Map<QueueKeys, List<String>> byPartition = byPartition(layout("acknowledge", queue), ids);
        call("acknowledge", queue, () -> {
            byPartition.forEach((keys, all) -> {
                for (int from = 0; from < all.size(); from += BATCH) {
                    List<String> batch = all.subList(from, Math.min(all.size(), from + BATCH));
                    redis.xack(keys.stream(), keys.group(), batch.toArray(String[]::new));
                }
            });
            return null;
        });
    }

    /** Entry ids grouped by partition, in the order given; ids that are not of this queue's layout are left out. */
    private static Map<QueueKeys, List<String>> byPartition(QueueLayout layout, Collection<?> ids) {
        Map<QueueKeys, List<String>> byPartition = new LinkedHashMap<>();
        for (Object id : ids) {
            layout.locate(id.toString()).ifPresent(located ->
                    byPartition.computeIfAbsent(located.keys(), k -> new ArrayList<>()).add(located.entryId()));
        }
        return byPartition;
    }

    @Override
    public void retryLater(Delivery delivery, Job retried) {
        requireSameQueue(delivery, retried.queue());
        Optional<Located> located = layout("retry", delivery.queue()).locate(delivery.id().value());
        Instant due = retried.notBefore().orElseGet(clock::instant);
        byte[] member = bytes(wire.delayedMember(retried, delivery.id().value(), false));
        // the retry waits in the delayed set of the delivery's own partition: one slot for the script
        Long moved = located.isEmpty() ? 0L : call("retry", delivery.queue(), () -> {
            QueueKeys keys = located.get().keys();
            return scripts.run(Script.RETRY_LATER, ScriptOutputType.INTEGER,
                    new byte[][] {keys.stream(), keys.delayed()}, keys.group(), bytes(located.get().entryId()),
                    number(due.toEpochMilli()), member);
        });
        if (moved == 0) {
            LOG.info("Entry {} of queue {} was no longer pending, so job {} was not scheduled for a retry",
                    delivery.id(), delivery.queue(), retried.id());
        }
    }

    @Override
    public void deadLetter(Delivery delivery, DeadLetter letter) {
        requireSameQueue(delivery, letter.queue());
        Optional<Located> located = layout("dead-letter", delivery.queue()).locate(delivery.id().value());
        Object deadId = located.isEmpty() ? null : call("dead-letter", delivery.queue(), () -> {
            QueueKeys keys = located.get().keys();
            String entryId = located.get().entryId();
            List<String> jobFields = wire.deadJobFields(letter);
            List<byte[]> args = new ArrayList<>();
            args.add(keys.group());
            args.add(bytes(entryId));
            // a malformed entry is copied byte for byte from the stream: its fields as Java text are escaped
            args.add(bytes(letter.job().isEmpty() ? "1" : "0"));
            args.add(number(jobFields.size()));
            jobFields.forEach(field -> args.add(bytes(field)));
            wire.deadFields(letter, entryId).forEach(field -> args.add(bytes(field)));
            return scripts.run(Script.DEAD_LETTER, ScriptOutputType.VALUE,
                    new byte[][] {keys.stream(), keys.dead()}, args.toArray(byte[][]::new));
        });
        if (deadId == null) {
            LOG.info("Entry {} of queue {} was no longer pending, so it was not dead-lettered", delivery.id(),
                    delivery.queue());
        }
    }

    @Override
    public Set<DeliveryId> extendLeases(QueueName queue, ConsumerName consumer, Collection<DeliveryId> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        QueueLayout layout = layout("extend leases", queue);
        Map<QueueKeys, List<String>> byPartition = byPartition(layout, ids);
        return withGroup("extend leases", queue, () -> {
            Set<DeliveryId> result = new LinkedHashSet<>();
            // an id that names no partition of the queue is not owned by anyone
            ids.stream().filter(id -> layout.locate(id.value()).isEmpty()).forEach(result::add);
            byPartition.forEach((keys, entryIds) -> {
                List<byte[]> args = new ArrayList<>(entryIds.size() + 2);
                args.add(keys.group());
                args.add(bytes(consumer.value()));
                entryIds.forEach(id -> args.add(bytes(id)));
                List<Object> lost = scripts.run(Script.EXTEND_LEASES, ScriptOutputType.MULTI,
                        new byte[][] {keys.stream()}, args.toArray(byte[][]::new));
                lost.forEach(id -> result.add(new DeliveryId(keys.idOf(ascii((byte[]) id)))));
            });
            return result;
        });
    }

    @Override
    public Reclaimed reclaimAbandoned(QueueName queue, ConsumerName consumer, Duration minIdle, int max) {
        requirePositive(max);
        QueueLayout layout = layout("reclaim", queue);
        Reclaimed reclaimed = withGroup("reclaim", queue, () -> {
            List<Delivery> deliveries = new ArrayList<>();
            List<DeliveryId> vanished = new ArrayList<>();
            for (QueueKeys keys : layout.all()) {
                if (deliveries.size() == max) {
                    break;
                }
                List<Object> reply = scripts.run(Script.RECLAIM_ABANDONED, ScriptOutputType.MULTI,
                        new byte[][] {keys.stream()}, keys.group(), bytes(consumer.value()),
                        number(minIdle.toMillis()), number(max - deliveries.size()));
                for (Object item : (List<?>) reply.get(0)) {
                    List<?> entry = (List<?>) item;
                    deliveries.add(delivery(keys, ascii((byte[]) entry.get(0)), (Long) entry.get(2),
                            fields(entry.get(1))));
                }
                ((List<?>) reply.get(1)).forEach(id -> vanished.add(new DeliveryId(keys.idOf(ascii((byte[]) id)))));
            }
            return new Reclaimed(deliveries, vanished);
        });
        if (!reclaimed.vanished().isEmpty()) {
            LOG.warn("{} pending entries of queue {} had vanished from the stream (trimmed or deleted while pending)"
                    + " and were removed from the pending list: {}", reclaimed.vanished().size(), queue,
                    reclaimed.vanished());
        }
        return reclaimed;
    }

    @Override
    public int promoteDue(QueueName queue, Instant now, int max) {
        requirePositive(max);
        QueueLayout layout = layout("promote", queue);
        return call("promote", queue, () -> {
            int moved = 0;
            for (QueueKeys keys : layout.all()) {
                if (moved == max) {
                    break;
                }
                Long n = scripts.run(Script.PROMOTE_DUE, ScriptOutputType.INTEGER,
                        new byte[][] {keys.delayed(), keys.stream()}, number(now.toEpochMilli()),
                        number(max - moved));
                moved += n.intValue();
            }
            return moved;
        });
    }

    // ---------------------------------------------------------------- housekeeping

    /** One partition's stats replies, requested together (pipelined) with every other partition's. */
    private record PartitionStats(QueueKeys keys, RedisFuture<Long> length, RedisFuture<Long> delayed,
                                  RedisFuture<Long> dead, RedisFuture<List<Object>> groups,
                                  RedisFuture<List<Object>> consumers, RedisFuture<List<PendingMessage>> oldest) {
    }

    @Override
    public QueueStats stats(QueueName queue) {
        QueueLayout layout = layout("stats", queue);
        RedisClusterAsyncCommands<byte[], byte[]> async = connection.async();
        return call("stats", queue, () -> {
            // pipelined: one round trip (per node); the group's commands fail when the stream or group is missing
            List<PartitionStats> requests = layout.all().stream().map(keys -> new PartitionStats(keys,
                    async.xlen(keys.stream()), async.zcard(keys.delayed()), async.xlen(keys.dead()),
                    async.xinfoGroups(keys.stream()), async.xinfoConsumers(keys.stream(), keys.group()),
                    async.xpending(keys.stream(), keys.group(), Range.unbounded(),
                            Limit.from(STATS_PENDING_SAMPLE)))).toList();
            long length = 0;
            long delayed = 0;
            long dead = 0;
            long pending = 0;
            long lag = 0;
            boolean lagKnown = true;
            boolean anyGroup = false;
            Duration oldestIdle = Duration.ZERO;
            Map<String, ConsumerStats> consumers = new LinkedHashMap<>();
            for (PartitionStats request : requests) {
                length += get(request.length());
                delayed += get(request.delayed());
                dead += get(request.dead());
                Optional<Map<String, Object>> group = ifExists(request.groups()).flatMap(all -> own(request.keys(),
                        all));
                if (group.isEmpty()) {
                    continue;
                }
                anyGroup = true;
                pending += (Long) group.get().get("pending");
                if (group.get().get("lag") instanceof Long partitionLag) {
                    lag += partitionLag;
                } else {
                    lagKnown = false;
                }
                for (PendingMessage message : ifExists(request.oldest()).orElse(List.of())) {
                    oldestIdle = max(oldestIdle, message.getSinceLastDelivery());
                }
                for (Object item : ifExists(request.consumers()).orElse(List.of())) {
                    Map<String, Object> info = info(item);
                    // one consumer across partitions: what it holds everywhere, idle since its latest action
                    consumers.merge(text(info.get("name")), new ConsumerStats(text(info.get("name")),
                            (Long) info.get("pending"), Duration.ofMillis((Long) info.get("idle"))),
                            (a, b) -> new ConsumerStats(a.name(), a.pending() + b.pending(),
                                    a.idle().compareTo(b.idle()) <= 0 ? a.idle() : b.idle()));
                }
            }
            OptionalLong groupLag = anyGroup && lagKnown ? OptionalLong.of(lag) : OptionalLong.empty();
            return new QueueStats(queue, length, groupLag, pending, oldestIdle, List.copyOf(consumers.values()),
                    delayed, dead);
        });
    }

    @Override
    public TrimOutcome trim(QueueName queue, Retention retention, Instant now) {
        QueueLayout layout = layout("trim", queue);
        long cutoffMs = now.toEpochMilli() - retention.maxAge().toMillis();
        if (cutoffMs <= 0) {
            return TrimOutcome.NOTHING;
        }
        EntryId cutoff = new EntryId(cutoffMs, 0);
        return call("trim", queue, () -> {
            long removed = 0;
            List<DeliveryId> keptFrom = new ArrayList<>();
            for (QueueKeys keys : layout.all()) {
                TrimOutcome outcome = trim(keys, cutoff);
                removed += outcome.removed();
                keptFrom.addAll(outcome.keptFrom());
            }
            return new TrimOutcome(removed, keptFrom);
        });
    }

    private TrimOutcome trim(QueueKeys keys, EntryId cutoff) {
        if (redis.exists(keys.stream()) == 0) {
            return TrimOutcome.NOTHING;
        }
        EntryId needed = null;
        boolean ownGroup = false;
        for (Object item : redis.xinfoGroups(keys.stream())) {
            Map<String, Object> group = info(item);
            ownGroup |= keys.groupName().equals(text(group.get("name")));
            needed = needed == null ? needed(keys, group) : EntryId.min(needed, needed(keys, group));
        }
        if (!ownGroup) {
            // our group is missing: nothing has been delivered to it yet, so it needs everything
            needed = EntryId.ZERO.next();
        }
        EntryId bound = EntryId.min(cutoff, needed);
        long removed = redis.xtrim(keys.stream(), XTrimArgs.Builder.minId(bound.toString()));
        // held back when entries that the retention would drop are still needed
        Range<String> keptByGroups = Range.from(Range.Boundary.including(needed.toString()),
                Range.Boundary.excluding(cutoff.toString()));
        boolean heldBack = needed.compareTo(cutoff) < 0
                && !redis.xrange(keys.stream(), keptByGroups, Limit.from(1)).isEmpty();
        return new TrimOutcome(removed, heldBack ? List.of(new DeliveryId(keys.idOf(needed.toString()))) : List.of());
    }

    /** The lowest id that {@code group} still needs: its oldest pending entry, and the first undelivered one. */
    private EntryId needed(QueueKeys keys, Map<String, Object> group) {
        EntryId needed = EntryId.parse(text(group.get("last-delivered-id"))).next();
        if ((Long) group.get("pending") > 0) {
            PendingMessages summary = redis.xpending(keys.stream(), bytes(text(group.get("name"))));
            needed = EntryId.min(needed, EntryId.parse(summary.getMessageIds().getLower().getValue()));
        }
        return needed;
    }

    @Override
    public List<ConsumerName> removeIdleConsumers(QueueName queue, Duration idle) {
        QueueLayout layout = layout("remove idle consumers", queue);
        return call("remove idle consumers", queue, () -> {
            Set<String> removed = new LinkedHashSet<>();
            Set<String> remaining = new LinkedHashSet<>();
            for (QueueKeys keys : layout.all()) {
                if (group(keys).isEmpty()) {
                    continue;
                }
                List<Object> names = scripts.run(Script.REMOVE_IDLE_CONSUMERS, ScriptOutputType.MULTI,
                        new byte[][] {keys.stream()}, keys.group(), number(idle.toMillis()));
                names.forEach(name -> removed.add(text(name)));
                if (layout.partitions() > 1) {
                    redis.xinfoConsumers(keys.stream(), keys.group()).forEach(c -> remaining.add(text(info(c)
                            .get("name"))));
                }
            }
            // a consumer still holding entries in some partition is kept there: it is not gone
            removed.removeAll(remaining);
            return removed.stream().map(ConsumerName::of).toList();
        });
    }

    @Override
    public List<StoredDeadLetter> deadLetters(QueueName queue, Optional<DeadLetterId> after, int limit) {
        requirePositive(limit);
        QueueLayout layout = layout("list dead letters", queue);
        // partition by partition: a cursor names its partition and the entry after which to go on
        Optional<Located> cursor = after.map(id -> layout.locate(id.value()).orElseThrow(() -> new InvalidValueException(
                "'" + id + "' is not a dead letter id of queue " + queue)));
        int first = cursor.map(located -> located.keys().partition()).orElse(0);
        return call("list dead letters", queue, () -> {
            List<StoredDeadLetter> letters = new ArrayList<>();
            for (int p = first; p < layout.partitions() && letters.size() < limit; p++) {
                Optional<String> from = p == first ? cursor.map(Located::entryId) : Optional.empty();
                letters.addAll(deadPage(layout.partition(p), from, limit - letters.size()));
            }
            return letters;
        });
    }

    private List<StoredDeadLetter> deadPage(QueueKeys keys, Optional<String> after, int limit) {
        Range<String> range = after
                .map(id -> Range.from(Range.Boundary.excluding(id), Range.Boundary.<String>unbounded()))
                .orElse(Range.unbounded());
        List<StoredDeadLetter> letters = new ArrayList<>();
        for (StreamMessage<byte[], byte[]> message : redis.xrange(keys.dead(), range, Limit.from(limit))) {
            StoredDeadLetter stored = wire.deadLetter(keys.queue(), message.getId(), fields(message));
            letters.add(new StoredDeadLetter(DeadLetterId.of(keys.idOf(stored.id().value())), stored.letter()));
        }
        return letters;
    }

    @Override
    public int redrive(QueueName queue, DeadLetterSelection selection) {
        QueueLayout layout = layout("redrive", queue);
        ensureDeclared(queue);
        return call("redrive", queue, () -> forSelected(layout, selection, (keys, ids) -> {
            byte[][] args = ids.stream().map(Utf8::bytes).toArray(byte[][]::new);
            Long moved = scripts.run(Script.REDRIVE, ScriptOutputType.INTEGER,
                    new byte[][] {keys.dead(), keys.stream()}, args);
            return moved.intValue();
        }));
    }

    @Override
    public int purgeDeadLetters(QueueName queue, DeadLetterSelection selection) {
        QueueLayout layout = layout("purge dead letters", queue);
        return call("purge dead letters", queue, () -> forSelected(layout, selection,
                (keys, ids) -> redis.xdel(keys.dead(), ids.toArray(String[]::new)).intValue()));
    }

    /**
     * Applies {@code action} to the selected dead letters (their entry ids), one batch (one atomic script or command)
     * of one partition at a time.
     */
    private int forSelected(QueueLayout layout, DeadLetterSelection selection,
                            BiFunction<QueueKeys, List<String>, Integer> action) {
        int done = 0;
        if (selection instanceof DeadLetterSelection.ByIds byIds) {
            for (Map.Entry<QueueKeys, List<String>> partition : byPartition(layout, byIds.ids()).entrySet()) {
                List<String> ids = partition.getValue();
                for (int from = 0; from < ids.size(); from += BATCH) {
                    done += action.apply(partition.getKey(), ids.subList(from, Math.min(ids.size(), from + BATCH)));
                }
            }
            return done;
        }
        for (QueueKeys keys : layout.all()) {
            Optional<String> after = Optional.empty();
            while (true) {
                List<StoredDeadLetter> page = deadPage(keys, after, BATCH);
                if (page.isEmpty()) {
                    break;
                }
                List<String> ids = page.stream().filter(selection::matches)
                        .map(stored -> entryId(stored.id())).toList();
                if (!ids.isEmpty()) {
                    done += action.apply(keys, ids);
                }
                after = Optional.of(entryId(page.get(page.size() - 1).id()));
            }
        }
        return done;
    }

    @Override
    public Optional<JobSighting> find(QueueName queue, JobId id) {
        QueueLayout layout = layout("find", queue);
        return call("find", queue, () -> firstOf(layout, keys -> findInStream(keys, id))
                .or(() -> firstOf(layout, keys -> findDelayed(keys, id)))
                .or(() -> firstOf(layout, keys -> findDead(keys, id))));
    }

    private static Optional<JobSighting> firstOf(QueueLayout layout,
                                                 Function<QueueKeys, Optional<JobSighting>> search) {
        return layout.all().stream().map(search).flatMap(Optional::stream).findFirst();
    }

    private Optional<JobSighting> findInStream(QueueKeys keys, JobId id) {
        Optional<Map<String, Object>> group = group(keys);
        if (group.isEmpty()) {
            return Optional.empty();
        }
        EntryId lastDelivered = EntryId.parse(text(group.get().get("last-delivered-id")));
        // everything below what the group still needs is acknowledged history: not held any more
        EntryId needed = needed(keys, group.get());
        Range.Boundary<String> upper = Range.Boundary.unbounded();
        int seen = 0;
        while (seen < FIND_SCAN_LIMIT) {
            List<StreamMessage<byte[], byte[]>> page = redis.xrevrange(keys.stream(),
                    Range.from(Range.Boundary.including(needed.toString()), upper), Limit.from(500));
            for (StreamMessage<byte[], byte[]> message : page) {
                List<byte[]> fields = fields(message);
                if (WireMapping.jobIdOf(fields).filter(id.value()::equals).isEmpty()) {
                    continue;
                }
                if (wire.entry(keys.queue(), message.getId(), fields) instanceof WireMapping.Entry.Valid valid) {
                    String messageId = keys.idOf(message.getId());
                    List<PendingMessage> pending = redis.xpending(keys.stream(), keys.group(),
                            Range.create(message.getId(), message.getId()), Limit.from(1));
                    if (!pending.isEmpty()) {
                        PendingMessage p = pending.get(0);
                        return Optional.of(new JobSighting.Pending(messageId, valid.job(), p.getConsumer(),
                                p.getSinceLastDelivery(), p.getRedeliveryCount()));
                    }
                    if (EntryId.parse(message.getId()).compareTo(lastDelivered) > 0) {
                        return Optional.of(new JobSighting.Waiting(messageId, valid.job()));
                    }
                }
            }
            seen += page.size();
            if (page.size() < 500) {
                break;
            }
            upper = Range.Boundary.excluding(page.get(page.size() - 1).getId());
        }
        return Optional.empty();
    }

    private Optional<JobSighting> findDelayed(QueueKeys keys, JobId id) {
        for (long from = 0; from < FIND_SCAN_LIMIT; from += 500) {
            List<ScoredValue<byte[]>> page = redis.zrangeWithScores(keys.delayed(), from, from + 499);
            for (ScoredValue<byte[]> member : page) {
                Instant due = Instant.ofEpochMilli((long) member.getScore());
                if (wire.delayedJob(keys.queue(), Utf8.escaped(member.getValue()), due)
                        instanceof WireMapping.Entry.Valid v && v.job().id().equals(id)) {
                    return Optional.of(new JobSighting.Delayed(v.job(), due));
                }
            }
            if (page.size() < 500) {
                break;
            }
        }
        return Optional.empty();
    }

    private Optional<JobSighting> findDead(QueueKeys keys, JobId id) {
        Optional<String> after = Optional.empty();
        for (int seen = 0; seen < FIND_SCAN_LIMIT; seen += 500) {
            List<StoredDeadLetter> page = deadPage(keys, after, 500);
            Optional<StoredDeadLetter> found = page.stream()
                    .filter(stored -> stored.letter().jobId().filter(id.value()::equals).isPresent())
                    .reduce((older, newer) -> newer);
            if (found.isPresent()) {
                return found.map(JobSighting.Dead::new);
            }
            if (page.size() < 500) {
                break;
            }
            after = Optional.of(entryId(page.get(page.size() - 1).id()));
        }
        return Optional.empty();
    }

    // ---------------------------------------------------------------- plumbing

    /** The queue's group as XINFO GROUPS shows it; empty when the stream or the group does not exist. */
    private Optional<Map<String, Object>> group(QueueKeys keys) {
        if (redis.exists(keys.stream()) == 0) {
            return Optional.empty();
        }
        return own(keys, redis.xinfoGroups(keys.stream()));
    }

    private static Optional<Map<String, Object>> own(QueueKeys keys, List<Object> groups) {
        return groups.stream().map(RedisStreamTransport::info)
                .filter(group -> keys.groupName().equals(text(group.get("name"))))
                .findFirst();
    }

    private <T> T get(RedisFuture<T> future) {
        return get(future, System.nanoTime() + commandTimeout.toNanos());
    }

    /** The reply, or empty when Redis answered that the stream or group does not exist. */
    private <T> Optional<T> ifExists(RedisFuture<T> future) {
        try {
            return Optional.of(get(future));
        } catch (RedisCommandExecutionException e) {
            String message = String.valueOf(e.getMessage());
            if (message.contains("NOGROUP") || message.contains("no such key")) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Runs a command that needs the group; recreates the group once when Redis lost it (restart without data). */
    private <T> T withGroup(String operation, QueueName queue, Supplier<T> action) {
        return call(operation, queue, () -> {
            try {
                return action.get();
            } catch (RedisCommandExecutionException e) {
                if (!String.valueOf(e.getMessage()).contains("NOGROUP")) {
                    throw e;
                }
                QueueLayout layout = layout(operation, queue);
                LOG.warn("Consumer group {} of queue {} was missing (did Redis restart without its data?): "
                        + "recreated it from the start of the stream", layout.partition(0).groupName(), queue);
                layout.all().forEach(keys -> createGroup(keys, "0"));
                declared.add(queue);
                return action.get();
            }
        });
    }

    /** Translates the client's exceptions into the port's. */
    private <T> T call(String operation, QueueName queue, Supplier<T> action) {
        try {
            return action.get();
        } catch (RedisCommandInterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException("Redis " + operation + " on queue " + queue + " was interrupted", e);
        } catch (RedisException e) {
            throw new TransportException("Redis " + operation + " on queue " + queue + " failed: " + e.getMessage(),
                    e);
        }
    }

    private static void requirePositive(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, got " + max);
        }
    }

    private static void requireSameQueue(Delivery delivery, QueueName queue) {
        if (!delivery.queue().equals(queue)) {
            throw new IllegalArgumentException("delivery of queue " + delivery.queue() + " cannot move to queue "
                    + queue);
        }
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** The entry id in an id of the port ({@code <partition>/<entry id>}, or the entry id alone). */
    private static String entryId(DeadLetterId id) {
        return id.value().substring(id.value().indexOf('/') + 1);
    }

    private static byte[] number(long value) {
        return bytes(Long.toString(value));
    }

    private static Object[] encode(List<String> fields) {
        return fields.stream().map(Utf8::bytes).toArray();
    }

    private static List<byte[]> fields(StreamMessage<byte[], byte[]> message) {
        List<byte[]> fields = new ArrayList<>(message.getBody().size() * 2);
        message.getBody().forEach((name, value) -> {
            fields.add(name);
            fields.add(value);
        });
        return fields;
    }

    /** A script's flat field list (name, value, ...). */
    private static List<byte[]> fields(Object flat) {
        List<byte[]> fields = new ArrayList<>();
        for (Object value : (List<?>) flat) {
            fields.add((byte[]) value);
        }
        return fields;
    }

    /** An XINFO reply (name, value, name, value...) as a map. */
    private static Map<String, Object> info(Object flat) {
        List<?> values = (List<?>) flat;
        Map<String, Object> info = new HashMap<>();
        for (int i = 0; i + 1 < values.size(); i += 2) {
            info.put(text(values.get(i)), values.get(i + 1));
        }
        return info;
    }

    private static String text(Object value) {
        return value instanceof byte[] raw ? Utf8.escaped(raw) : Objects.toString(value);
    }
}
