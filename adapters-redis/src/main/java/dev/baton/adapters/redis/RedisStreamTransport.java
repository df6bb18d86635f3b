package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Utf8.ascii;
import static dev.baton.adapters.redis.Utf8.bytes;

import dev.baton.adapters.redis.LuaScripts.Script;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.application.port.out.StreamTransport;
import dev.baton.application.port.out.TransportException;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.ConsumerStats;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterSelection;
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
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.models.stream.PendingMessage;
import io.lettuce.core.models.stream.PendingMessages;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
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
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link StreamTransport} on Redis Streams; the key layout and wire protocol are described in docs/REDIS.md. */
final class RedisStreamTransport implements StreamTransport {
    private static final Logger LOG = LoggerFactory.getLogger(RedisStreamTransport.class);
    /** Ids per XACK / XDEL / redrive script call: keeps each command, and the time Redis spends in it, small. */
    private static final int BATCH = 200;
    /** How many entries {@link #find} looks at per place (stream, delayed set, dead letters). */
    static final int FIND_SCAN_LIMIT = 10_000;
    /** Pending entries looked at for the oldest pending idle time in {@link #stats}. */
    private static final int STATS_PENDING_SAMPLE = 1_000;

    private final StatefulRedisConnection<byte[], byte[]> connection;
    private final StatefulRedisConnection<byte[], byte[]> pipeline;
    private final RedisCommands<byte[], byte[]> redis;
    private final BlockingReads blockingReads;
    private final LuaScripts scripts;
    private final WireMapping wire;
    private final String groupSuffix;
    private final boolean groupStartsAtEnd;
    private final Duration commandTimeout;
    private final Clock clock;
    private final Set<QueueName> declared = ConcurrentHashMap.newKeySet();

    /** @param pipeline a connection that does not flush automatically, for batches; used only here */
    RedisStreamTransport(StatefulRedisConnection<byte[], byte[]> connection,
                         StatefulRedisConnection<byte[], byte[]> pipeline, BlockingReads blockingReads,
                         LuaScripts scripts, WireMapping wire, RedisAdapter.Config config, Clock clock) {
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

    private QueueKeys keys(QueueName queue) {
        return QueueKeys.of(queue, groupSuffix);
    }

    // ---------------------------------------------------------------- producing

    @Override
    public void declare(QueueName queue) {
        call("declare", queue, () -> {
            createGroup(keys(queue), groupStartsAtEnd ? "$" : "0");
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
        List<Function<RedisAsyncCommands<byte[], byte[]>, RedisFuture<?>>> commands = new ArrayList<>(jobs.size());
        for (Job job : jobs) {
            QueueKeys keys = keys(job.queue());
            if (job.notBefore().isPresent()) {
                byte[] member = bytes(wire.delayedMember(job, UUID.randomUUID().toString(), true));
                double due = job.notBefore().get().toEpochMilli();
                commands.add(async -> async.zadd(keys.delayed(), due, member));
            } else {
                Object[] fields = encode(wire.publishedFields(job));
                commands.add(async -> async.xadd(keys.stream(), fields));
            }
        }
        jobs.stream().map(Job::queue).distinct().forEach(this::ensureDeclared);
        call("publish", jobs.get(0).queue(), () -> {
            List<RedisFuture<?>> futures;
            // the batch goes out in one write: the pipeline connection does not flush by itself
            synchronized (pipeline) {
                RedisAsyncCommands<byte[], byte[]> async = pipeline.async();
                futures = commands.stream().<RedisFuture<?>>map(command -> command.apply(async)).toList();
                pipeline.flushCommands();
            }
            long deadline = System.nanoTime() + commandTimeout.toNanos();
            futures.forEach(future -> get(future, deadline));
            return null;
        });
    }

    /** Waits for a pipelined reply, at most until {@code deadline} ({@link System#nanoTime()}). */
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

    // ---------------------------------------------------------------- consuming

    @Override
    public List<Delivery> lease(QueueName queue, ConsumerName consumer, int max, Duration block) {
        requirePositive(max);
        if (block.isNegative()) {
            throw new IllegalArgumentException("block must not be negative, got " + block);
        }
        QueueKeys keys = keys(queue);
        XReadArgs args = XReadArgs.Builder.count(max);
        if (!block.isZero()) {
            args.block(Math.max(1, block.toMillis()));
        }
        return withGroup("lease", queue, () -> {
            StatefulRedisConnection<byte[], byte[]> reader = blockingReads.forCurrentThread();
            // longer than BLOCK: a read cut short by the client would still deliver, into the pending list only
            reader.setTimeout(commandTimeout.plus(block));
            List<StreamMessage<byte[], byte[]>> messages = readNew(reader, keys, consumer, args);
            return messages.stream().map(message -> wire.delivery(queue, message.getId(), 1, fields(message)))
                    .toList();
        });
    }

    @SuppressWarnings("unchecked") // Lettuce takes the stream offsets as generic varargs
    private static List<StreamMessage<byte[], byte[]>> readNew(StatefulRedisConnection<byte[], byte[]> reader,
                                                               QueueKeys keys, ConsumerName consumer, XReadArgs args) {
        return reader.sync().xreadgroup(Consumer.from(keys.group(), bytes(consumer.value())), args,
                StreamOffset.lastConsumed(keys.stream()));
    }

    @Override
    public List<Delivery> leaseOwnPending(QueueName queue, ConsumerName consumer, int max) {
        requirePositive(max);
        QueueKeys keys = keys(queue);
        return withGroup("lease own pending", queue, () -> {
            List<Object> entries = scripts.run(Script.LEASE_OWN_PENDING, ScriptOutputType.MULTI,
                    new byte[][] {keys.stream()}, keys.group(), bytes(consumer.value()), number(max));
            List<Delivery> deliveries = new ArrayList<>(entries.size());
            for (Object item : entries) {
                List<?> entry = (List<?>) item;
                // an entry trimmed while pending has no fields: it stays pending, reclaimAbandoned reports it
                if (entry.get(1) != null) {
                    deliveries.add(wire.delivery(queue, ascii((byte[]) entry.get(0)), (Long) entry.get(2),
                            fields(entry.get(1))));
                }
            }
            return deliveries;
        });
    }

    @Override
    public void acknowledge(QueueName queue, Collection<DeliveryId> ids) {
        QueueKeys keys = keys(queue);
        List<String> all = ids.stream().map(DeliveryId::value).toList();
        call("acknowledge", queue, () -> {
            for (int from = 0; from < all.size(); from += BATCH) {
                List<String> batch = all.subList(from, Math.min(all.size(), from + BATCH));
                redis.xack(keys.stream(), keys.group(), batch.toArray(String[]::new));
            }
            return null;
        });
    }

    @Override
    public void retryLater(Delivery delivery, Job retried) {
        requireSameQueue(delivery, retried.queue());
        QueueKeys keys = keys(delivery.queue());
        Instant due = retried.notBefore().orElseGet(clock::instant);
        byte[] member = bytes(wire.delayedMember(retried, delivery.id().value(), false));
        Long moved = call("retry", delivery.queue(), () -> scripts.run(Script.RETRY_LATER, ScriptOutputType.INTEGER,
                new byte[][] {keys.stream(), keys.delayed()}, keys.group(), bytes(delivery.id().value()),
                number(due.toEpochMilli()), member));
        if (moved == 0) {
            LOG.info("Entry {} of queue {} was no longer pending, so job {} was not scheduled for a retry",
                    delivery.id(), delivery.queue(), retried.id());
        }
    }

    @Override
    public void deadLetter(Delivery delivery, DeadLetter letter) {
        requireSameQueue(delivery, letter.queue());
        QueueKeys keys = keys(delivery.queue());
        List<String> jobFields = wire.deadJobFields(letter);
        List<byte[]> args = new ArrayList<>();
        args.add(keys.group());
        args.add(bytes(delivery.id().value()));
        // a malformed entry is copied byte for byte from the stream: its fields as Java text are escaped
        args.add(bytes(letter.job().isEmpty() ? "1" : "0"));
        args.add(number(jobFields.size()));
        jobFields.forEach(field -> args.add(bytes(field)));
        wire.deadFields(letter, delivery.id().value()).forEach(field -> args.add(bytes(field)));
        Object deadId = call("dead-letter", delivery.queue(), () -> scripts.run(Script.DEAD_LETTER,
                ScriptOutputType.VALUE, new byte[][] {keys.stream(), keys.dead()}, args.toArray(byte[][]::new)));
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
        QueueKeys keys = keys(queue);
        List<byte[]> args = new ArrayList<>(ids.size() + 2);
        args.add(keys.group());
        args.add(bytes(consumer.value()));
        ids.forEach(id -> args.add(bytes(id.value())));
        List<Object> lost = withGroup("extend leases", queue, () -> scripts.run(Script.EXTEND_LEASES,
                ScriptOutputType.MULTI, new byte[][] {keys.stream()}, args.toArray(byte[][]::new)));
        Set<DeliveryId> result = new LinkedHashSet<>();
        lost.forEach(id -> result.add(new DeliveryId(ascii((byte[]) id))));
        return result;
    }

    @Override
    public Reclaimed reclaimAbandoned(QueueName queue, ConsumerName consumer, Duration minIdle, int max) {
        requirePositive(max);
        QueueKeys keys = keys(queue);
        List<Object> reply = withGroup("reclaim", queue, () -> scripts.run(Script.RECLAIM_ABANDONED,
                ScriptOutputType.MULTI, new byte[][] {keys.stream()}, keys.group(), bytes(consumer.value()),
                number(minIdle.toMillis()), number(max)));
        List<Delivery> deliveries = new ArrayList<>();
        for (Object item : (List<?>) reply.get(0)) {
            List<?> entry = (List<?>) item;
            deliveries.add(wire.delivery(queue, ascii((byte[]) entry.get(0)), (Long) entry.get(2),
                    fields(entry.get(1))));
        }
        List<DeliveryId> vanished = ((List<?>) reply.get(1)).stream()
                .map(id -> new DeliveryId(ascii((byte[]) id))).toList();
        if (!vanished.isEmpty()) {
            LOG.warn("{} pending entries of queue {} had vanished from the stream (trimmed or deleted while pending)"
                    + " and were removed from the pending list: {}", vanished.size(), queue, vanished);
        }
        return new Reclaimed(deliveries, vanished);
    }

    @Override
    public int promoteDue(QueueName queue, Instant now, int max) {
        requirePositive(max);
        QueueKeys keys = keys(queue);
        Long moved = call("promote", queue, () -> scripts.run(Script.PROMOTE_DUE, ScriptOutputType.INTEGER,
                new byte[][] {keys.delayed(), keys.stream()}, number(now.toEpochMilli()), number(max)));
        return moved.intValue();
    }

    // ---------------------------------------------------------------- housekeeping

    @Override
    public QueueStats stats(QueueName queue) {
        QueueKeys keys = keys(queue);
        RedisAsyncCommands<byte[], byte[]> async = connection.async();
        return call("stats", queue, () -> {
            // pipelined: one round trip; the group's commands fail when the stream or group is missing
            RedisFuture<Long> length = async.xlen(keys.stream());
            RedisFuture<Long> delayed = async.zcard(keys.delayed());
            RedisFuture<Long> dead = async.xlen(keys.dead());
            RedisFuture<List<Object>> groups = async.xinfoGroups(keys.stream());
            RedisFuture<List<Object>> consumerInfo = async.xinfoConsumers(keys.stream(), keys.group());
            RedisFuture<List<PendingMessage>> oldest = async.xpending(keys.stream(), keys.group(), Range.unbounded(),
                    Limit.from(STATS_PENDING_SAMPLE));
            Optional<Map<String, Object>> group = ifExists(groups).flatMap(all -> own(keys, all));
            if (group.isEmpty()) {
                return new QueueStats(queue, get(length), OptionalLong.empty(), 0, Duration.ZERO, List.of(),
                        get(delayed), get(dead));
            }
            Duration oldestIdle = Duration.ZERO;
            for (PendingMessage message : ifExists(oldest).orElse(List.of())) {
                oldestIdle = max(oldestIdle, message.getSinceLastDelivery());
            }
            List<ConsumerStats> consumers = new ArrayList<>();
            for (Object item : ifExists(consumerInfo).orElse(List.of())) {
                Map<String, Object> consumer = info(item);
                consumers.add(new ConsumerStats(text(consumer.get("name")), (Long) consumer.get("pending"),
                        Duration.ofMillis((Long) consumer.get("idle"))));
            }
            Object lag = group.get().get("lag");
            return new QueueStats(queue, get(length), lag instanceof Long l ? OptionalLong.of(l) : OptionalLong.empty(),
                    (Long) group.get().get("pending"), oldestIdle, consumers, get(delayed), get(dead));
        });
    }

    @Override
    public TrimOutcome trim(QueueName queue, Retention retention, Instant now) {
        QueueKeys keys = keys(queue);
        long cutoffMs = now.toEpochMilli() - retention.maxAge().toMillis();
        if (cutoffMs <= 0) {
            return new TrimOutcome(0, false, "");
        }
        EntryId cutoff = new EntryId(cutoffMs, 0);
        return call("trim", queue, () -> {
            if (redis.exists(keys.stream()) == 0) {
                return new TrimOutcome(0, false, "");
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
            return new TrimOutcome(removed, heldBack, heldBack ? needed.toString() : "");
        });
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
    public List<String> removeIdleConsumers(QueueName queue, Duration idle) {
        QueueKeys keys = keys(queue);
        return call("remove idle consumers", queue, () -> {
            if (group(keys).isEmpty()) {
                return List.of();
            }
            List<Object> removed = scripts.run(Script.REMOVE_IDLE_CONSUMERS, ScriptOutputType.MULTI,
                    new byte[][] {keys.stream()}, keys.group(), number(idle.toMillis()));
            return removed.stream().map(RedisStreamTransport::text).toList();
        });
    }

    @Override
    public List<StoredDeadLetter> deadLetters(QueueName queue, Optional<String> after, int limit) {
        requirePositive(limit);
        QueueKeys keys = keys(queue);
        return call("list dead letters", queue, () -> deadPage(queue, keys, after, limit));
    }

    private List<StoredDeadLetter> deadPage(QueueName queue, QueueKeys keys, Optional<String> after, int limit) {
        Range<String> range = after
                .map(id -> Range.from(Range.Boundary.excluding(id), Range.Boundary.<String>unbounded()))
                .orElse(Range.unbounded());
        List<StoredDeadLetter> letters = new ArrayList<>();
        for (StreamMessage<byte[], byte[]> message : redis.xrange(keys.dead(), range, Limit.from(limit))) {
            letters.add(wire.deadLetter(queue, message.getId(), fields(message)));
        }
        return letters;
    }

    @Override
    public int redrive(QueueName queue, DeadLetterSelection selection) {
        QueueKeys keys = keys(queue);
        ensureDeclared(queue);
        return call("redrive", queue, () -> forSelected(queue, keys, selection, ids -> {
            byte[][] args = ids.stream().map(Utf8::bytes).toArray(byte[][]::new);
            Long moved = scripts.run(Script.REDRIVE, ScriptOutputType.INTEGER,
                    new byte[][] {keys.dead(), keys.stream()}, args);
            return moved.intValue();
        }));
    }

    @Override
    public int purgeDeadLetters(QueueName queue, DeadLetterSelection selection) {
        QueueKeys keys = keys(queue);
        return call("purge dead letters", queue, () -> forSelected(queue, keys, selection,
                ids -> redis.xdel(keys.dead(), ids.toArray(String[]::new)).intValue()));
    }

    private interface BatchAction {
        int apply(List<String> ids);
    }

    /** Applies {@code action} to the selected dead letters, one batch (one atomic script or command) at a time. */
    private int forSelected(QueueName queue, QueueKeys keys, DeadLetterSelection selection, BatchAction action) {
        int done = 0;
        if (selection instanceof DeadLetterSelection.ByIds byIds) {
            List<String> ids = byIds.ids();
            for (int from = 0; from < ids.size(); from += BATCH) {
                done += action.apply(ids.subList(from, Math.min(ids.size(), from + BATCH)));
            }
            return done;
        }
        Optional<String> after = Optional.empty();
        while (true) {
            List<StoredDeadLetter> page = deadPage(queue, keys, after, BATCH);
            if (page.isEmpty()) {
                return done;
            }
            List<String> ids = page.stream().filter(selection::matches).map(StoredDeadLetter::id).toList();
            if (!ids.isEmpty()) {
                done += action.apply(ids);
            }
            after = Optional.of(page.get(page.size() - 1).id());
        }
    }

    @Override
    public Optional<JobSighting> find(QueueName queue, JobId id) {
        QueueKeys keys = keys(queue);
        return call("find", queue, () -> findInStream(queue, keys, id)
                .or(() -> findDelayed(queue, keys, id))
                .or(() -> findDead(queue, keys, id)));
    }

    private Optional<JobSighting> findInStream(QueueName queue, QueueKeys keys, JobId id) {
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
                if (wire.entry(queue, message.getId(), fields) instanceof WireMapping.Entry.Valid valid) {
                    List<PendingMessage> pending = redis.xpending(keys.stream(), keys.group(),
                            Range.create(message.getId(), message.getId()), Limit.from(1));
                    if (!pending.isEmpty()) {
                        PendingMessage p = pending.get(0);
                        return Optional.of(new JobSighting.Pending(message.getId(), valid.job(), p.getConsumer(),
                                p.getSinceLastDelivery(), p.getRedeliveryCount()));
                    }
                    if (EntryId.parse(message.getId()).compareTo(lastDelivered) > 0) {
                        return Optional.of(new JobSighting.Waiting(message.getId(), valid.job()));
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

    private Optional<JobSighting> findDelayed(QueueName queue, QueueKeys keys, JobId id) {
        for (long from = 0; from < FIND_SCAN_LIMIT; from += 500) {
            List<ScoredValue<byte[]>> page = redis.zrangeWithScores(keys.delayed(), from, from + 499);
            for (ScoredValue<byte[]> member : page) {
                Instant due = Instant.ofEpochMilli((long) member.getScore());
                if (wire.delayedJob(queue, Utf8.escaped(member.getValue()), due) instanceof WireMapping.Entry.Valid v
                        && v.job().id().equals(id)) {
                    return Optional.of(new JobSighting.Delayed(v.job(), due));
                }
            }
            if (page.size() < 500) {
                break;
            }
        }
        return Optional.empty();
    }

    private Optional<JobSighting> findDead(QueueName queue, QueueKeys keys, JobId id) {
        Optional<String> after = Optional.empty();
        for (int seen = 0; seen < FIND_SCAN_LIMIT; seen += 500) {
            List<StoredDeadLetter> page = deadPage(queue, keys, after, 500);
            Optional<StoredDeadLetter> found = page.stream()
                    .filter(stored -> stored.letter().jobId().filter(id.value()::equals).isPresent())
                    .reduce((older, newer) -> newer);
            if (found.isPresent()) {
                return found.map(JobSighting.Dead::new);
            }
            if (page.size() < 500) {
                break;
            }
            after = Optional.of(page.get(page.size() - 1).id());
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
                LOG.warn("Consumer group {} of queue {} was missing (did Redis restart without its data?): "
                        + "recreated it from the start of the stream", keys(queue).groupName(), queue);
                createGroup(keys(queue), "0");
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
