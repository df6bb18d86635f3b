package dev.baton.application.testing;

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
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import dev.baton.domain.Retention;
import dev.baton.domain.StoredDeadLetter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * A stream transport in memory that behaves like the Redis Streams one: per queue a stream of entries with
 * {@code <ms>-<seq>} ids taken from the injected clock, one consumer group with a last-delivered id and a pending
 * entries list (owner, last delivery, delivery count), a delayed set ordered by due time and a dead-letter stream.
 * Jobs travel as the same wire fields Redis carries ({@code job_id}, {@code payload}, {@code attempt}, {@code type},
 * {@code enqueued_at}, any other field a header), so malformed entries can be injected with {@link #appendRaw}.
 *
 * <p>One monitor guards everything, which makes every move atomic; {@link #lease} really waits (on that monitor)
 * for up to its block time, and publishing wakes it. Idle times come from the clock.
 */
public final class InMemoryStreamTransport
        implements JobPublisher, JobLeases, QueueMaintenance, QueueAdministration {
    static final String JOB_ID = "job_id";
    static final String PAYLOAD = "payload";
    static final String ATTEMPT = "attempt";
    static final String TYPE = "type";
    static final String ENQUEUED_AT = "enqueued_at";
    private static final Set<String> RESERVED = Set.of(JOB_ID, PAYLOAD, ATTEMPT, TYPE, ENQUEUED_AT);

    private final Clock clock;
    private final PayloadLimit payloadLimit;
    private final Map<QueueName, QueueState> queues = new HashMap<>();
    private int failingLeases;

    public InMemoryStreamTransport(Clock clock, PayloadLimit payloadLimit) {
        this.clock = clock;
        this.payloadLimit = payloadLimit;
    }

    public InMemoryStreamTransport(Clock clock) {
        this(clock, PayloadLimit.DEFAULT);
    }

    /** Test hook: appends an entry with these fields verbatim, valid job or not (like a foreign {@code XADD}). */
    public synchronized void appendRaw(QueueName queue, Map<String, String> fields) {
        state(queue).append(Map.copyOf(fields), clock.instant());
        notifyAll();
    }

    /** Test hook: deletes an entry's data but leaves it in the pending list (like {@code XDEL}). */
    public synchronized void deleteEntry(QueueName queue, DeliveryId id) {
        state(queue).stream.remove(EntryId.parse(id.value()));
    }

    /** Test hook: the next {@code count} calls of {@link #lease} throw {@link TransportException} (server lost). */
    public synchronized void failNextLeases(int count) {
        failingLeases = count;
    }

    @Override
    public synchronized void declare(QueueName queue) {
        state(queue);
    }

    @Override
    public synchronized void publish(Job job) {
        QueueState state = state(job.queue());
        if (job.notBefore().isPresent()) {
            state.delay(job, job.notBefore().get());
        } else {
            state.append(fieldsOf(job), clock.instant());
        }
        notifyAll();
    }

    @Override
    public synchronized void publishAll(List<Job> jobs) {
        jobs.forEach(this::publish);
    }

    @Override
    public synchronized List<Delivery> lease(QueueName queue, ConsumerName consumer, int max, Duration block) {
        if (failingLeases > 0) {
            failingLeases--;
            throw new TransportException("server unreachable (test hook)");
        }
        QueueState state = state(queue);
        long deadline = System.nanoTime() + block.toNanos();
        state.seen(consumer.value(), clock.instant());
        while (state.firstUndelivered().isEmpty()) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return List.of();
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, remaining);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return List.of();
            }
        }
        List<Delivery> deliveries = new ArrayList<>();
        Instant now = clock.instant();
        for (Map.Entry<EntryId, Map<String, String>> entry : state.stream.tailMap(state.lastDelivered, false)
                .entrySet()) {
            if (deliveries.size() == max) {
                break;
            }
            state.lastDelivered = entry.getKey();
            state.pending.put(entry.getKey(), new PendingEntry(consumer.value(), now, 1));
            deliveries.add(delivery(queue, entry.getKey(), 1, entry.getValue()));
        }
        return deliveries;
    }

    @Override
    public synchronized List<Delivery> leaseOwnPending(QueueName queue, ConsumerName consumer, int max) {
        QueueState state = state(queue);
        Instant now = clock.instant();
        state.seen(consumer.value(), now);
        List<Delivery> deliveries = new ArrayList<>();
        for (Map.Entry<EntryId, PendingEntry> entry : state.pending.entrySet()) {
            if (deliveries.size() == max) {
                break;
            }
            PendingEntry pending = entry.getValue();
            Map<String, String> fields = state.stream.get(entry.getKey());
            // like XREADGROUP 0: an entry whose data is gone cannot be re-read; XAUTOCLAIM reports it later
            if (pending.owner.equals(consumer.value()) && fields != null) {
                PendingEntry redelivered = pending.redelivered(consumer.value(), now);
                entry.setValue(redelivered);
                deliveries.add(delivery(queue, entry.getKey(), redelivered.deliveries, fields));
            }
        }
        return deliveries;
    }

    @Override
    public synchronized void acknowledge(QueueName queue, Collection<DeliveryId> ids) {
        QueueState state = state(queue);
        ids.forEach(id -> state.pending.remove(EntryId.parse(id.value())));
    }

    @Override
    public synchronized void retryLater(Delivery delivery, Job retried) {
        QueueState state = state(delivery.queue());
        state.pending.remove(EntryId.parse(delivery.id().value()));
        state.delay(retried, retried.notBefore().orElse(clock.instant()));
    }

    @Override
    public synchronized void deadLetter(Delivery delivery, DeadLetter letter) {
        QueueState state = state(delivery.queue());
        state.pending.remove(EntryId.parse(delivery.id().value()));
        state.dead.put(state.deadIds.next(clock.instant()), letter);
    }

    @Override
    public synchronized Set<DeliveryId> extendLeases(QueueName queue, ConsumerName consumer,
                                                     Collection<DeliveryId> ids) {
        QueueState state = state(queue);
        Instant now = clock.instant();
        state.seen(consumer.value(), now);
        Set<DeliveryId> lost = new HashSet<>();
        for (DeliveryId id : ids) {
            EntryId entryId = EntryId.parse(id.value());
            PendingEntry pending = state.pending.get(entryId);
            if (pending != null && pending.owner.equals(consumer.value())) {
                state.pending.put(entryId, new PendingEntry(pending.owner, now, pending.deliveries));
            } else {
                lost.add(id);
            }
        }
        return lost;
    }

    @Override
    public synchronized Reclaimed reclaimAbandoned(QueueName queue, ConsumerName consumer, Duration minIdle,
                                                   int max) {
        QueueState state = state(queue);
        Instant now = clock.instant();
        state.seen(consumer.value(), now);
        List<Delivery> deliveries = new ArrayList<>();
        List<DeliveryId> vanished = new ArrayList<>();
        Iterator<Map.Entry<EntryId, PendingEntry>> entries = state.pending.entrySet().iterator();
        while (entries.hasNext() && deliveries.size() + vanished.size() < max) {
            Map.Entry<EntryId, PendingEntry> entry = entries.next();
            PendingEntry pending = entry.getValue();
            if (Duration.between(pending.lastDelivery, now).compareTo(minIdle) < 0) {
                continue;
            }
            Map<String, String> fields = state.stream.get(entry.getKey());
            if (fields == null) {
                entries.remove();
                vanished.add(new DeliveryId(entry.getKey().toString()));
            } else {
                PendingEntry claimed = pending.redelivered(consumer.value(), now);
                entry.setValue(claimed);
                deliveries.add(delivery(queue, entry.getKey(), claimed.deliveries, fields));
            }
        }
        return new Reclaimed(deliveries, vanished);
    }

    @Override
    public synchronized int promoteDue(QueueName queue, Instant now, int max) {
        QueueState state = state(queue);
        int moved = 0;
        while (moved < max && !state.delayed.isEmpty() && !state.delayed.first().dueAt.isAfter(now)) {
            Job job = state.delayed.pollFirst().job;
            state.append(fieldsOf(job), clock.instant());
            moved++;
        }
        if (moved > 0) {
            notifyAll();
        }
        return moved;
    }

    @Override
    public synchronized QueueStats stats(QueueName queue) {
        QueueState state = state(queue);
        Instant now = clock.instant();
        Duration oldestIdle = state.pending.values().stream()
                .map(pending -> Duration.between(pending.lastDelivery, now))
                .max(Comparator.naturalOrder())
                .orElse(Duration.ZERO);
        List<ConsumerStats> consumers = state.consumers.entrySet().stream()
                .map(consumer -> new ConsumerStats(consumer.getKey(), state.ownedBy(consumer.getKey()),
                        Duration.between(consumer.getValue(), now)))
                .sorted(Comparator.comparing(ConsumerStats::name))
                .toList();
        long lag = state.stream.tailMap(state.lastDelivered, false).size();
        return new QueueStats(queue, state.stream.size(), OptionalLong.of(lag), state.pending.size(), oldestIdle,
                consumers, state.delayed.size(), state.dead.size());
    }

    @Override
    public synchronized TrimOutcome trim(QueueName queue, Retention retention, Instant now) {
        QueueState state = state(queue);
        EntryId cutoff = new EntryId(now.minus(retention.maxAge()).toEpochMilli(), 0);
        Optional<EntryId> bound = state.safeBound();
        EntryId minId = bound.filter(b -> b.compareTo(cutoff) < 0).orElse(cutoff);
        NavigableMap<EntryId, Map<String, String>> removable = state.stream.headMap(minId, false);
        long removed = removable.size();
        removable.clear();
        return new TrimOutcome(removed, bound.filter(b -> b.compareTo(cutoff) < 0)
                .map(b -> List.of(new DeliveryId(b.toString()))).orElse(List.of()));
    }

    @Override
    public synchronized List<ConsumerName> removeIdleConsumers(QueueName queue, Duration idle) {
        QueueState state = state(queue);
        Instant now = clock.instant();
        List<ConsumerName> removed = new ArrayList<>();
        state.consumers.entrySet().removeIf(consumer -> {
            boolean remove = Duration.between(consumer.getValue(), now).compareTo(idle) > 0
                    && state.ownedBy(consumer.getKey()) == 0;
            if (remove) {
                removed.add(ConsumerName.of(consumer.getKey()));
            }
            return remove;
        });
        return removed;
    }

    @Override
    public synchronized List<StoredDeadLetter> deadLetters(QueueName queue, Optional<DeadLetterId> after, int limit) {
        QueueState state = state(queue);
        NavigableMap<EntryId, DeadLetter> page = after
                .map(id -> state.dead.tailMap(EntryId.parse(id.value()), false))
                .orElse(state.dead);
        return page.entrySet().stream()
                .limit(limit)
                .map(entry -> new StoredDeadLetter(DeadLetterId.of(entry.getKey().toString()), entry.getValue()))
                .toList();
    }

    @Override
    public synchronized int redrive(QueueName queue, DeadLetterSelection selection) {
        QueueState state = state(queue);
        List<StoredDeadLetter> selected = state.selectDead(selection);
        for (StoredDeadLetter stored : selected) {
            DeadLetter letter = stored.letter();
            Map<String, String> fields = letter.job().map(job -> fieldsOf(job.redriven())).orElse(letter.rawFields());
            state.append(fields, clock.instant());
            state.dead.remove(EntryId.parse(stored.id().value()));
        }
        if (!selected.isEmpty()) {
            notifyAll();
        }
        return selected.size();
    }

    @Override
    public synchronized int purgeDeadLetters(QueueName queue, DeadLetterSelection selection) {
        QueueState state = state(queue);
        List<StoredDeadLetter> selected = state.selectDead(selection);
        selected.forEach(stored -> state.dead.remove(EntryId.parse(stored.id().value())));
        return selected.size();
    }

    @Override
    public synchronized Optional<JobSighting> find(QueueName queue, JobId id) {
        QueueState state = state(queue);
        Instant now = clock.instant();
        for (Map.Entry<EntryId, PendingEntry> entry : state.pending.entrySet()) {
            Optional<Job> job = jobWithId(queue, state.stream.get(entry.getKey()), id);
            if (job.isPresent()) {
                PendingEntry pending = entry.getValue();
                return Optional.of(new JobSighting.Pending(entry.getKey().toString(), job.get(), pending.owner,
                        Duration.between(pending.lastDelivery, now), pending.deliveries));
            }
        }
        for (Map.Entry<EntryId, Map<String, String>> entry : state.stream.tailMap(state.lastDelivered, false)
                .entrySet()) {
            Optional<Job> job = jobWithId(queue, entry.getValue(), id);
            if (job.isPresent()) {
                return Optional.of(new JobSighting.Waiting(entry.getKey().toString(), job.get()));
            }
        }
        for (DelayedJob delayed : state.delayed) {
            if (delayed.job.id().equals(id)) {
                return Optional.of(new JobSighting.Delayed(delayed.job, delayed.dueAt));
            }
        }
        return state.dead.entrySet().stream()
                .filter(entry -> entry.getValue().jobId().filter(id.value()::equals).isPresent())
                .findFirst()
                .map(entry -> new JobSighting.Dead(new StoredDeadLetter(DeadLetterId.of(entry.getKey().toString()), entry.getValue())));
    }

    private Optional<Job> jobWithId(QueueName queue, Map<String, String> fields, JobId id) {
        if (fields == null || !id.value().equals(fields.get(JOB_ID))) {
            return Optional.empty();
        }
        return delivery(queue, EntryId.ZERO, 0, fields) instanceof Delivery.Leased leased
                ? Optional.of(leased.job()) : Optional.empty();
    }

    private QueueState state(QueueName queue) {
        return queues.computeIfAbsent(queue, q -> new QueueState());
    }

    /** The wire fields of a job, as the Redis transport writes them. */
    static Map<String, String> fieldsOf(Job job) {
        Map<String, String> fields = new LinkedHashMap<>(job.headers());
        fields.put(JOB_ID, job.id().value());
        fields.put(PAYLOAD, job.payload());
        fields.put(ATTEMPT, Integer.toString(job.attempt()));
        fields.put(ENQUEUED_AT, Long.toString(job.enqueuedAt().toEpochMilli()));
        job.type().ifPresent(type -> fields.put(TYPE, type));
        return fields;
    }

    /** Reads an entry's fields back into a job, or says why they are not one. */
    private Delivery delivery(QueueName queue, EntryId id, long deliveries, Map<String, String> fields) {
        DeliveryId deliveryId = new DeliveryId(id.toString());
        String jobId = fields.get(JOB_ID);
        String payload = fields.get(PAYLOAD);
        if (jobId == null || payload == null) {
            return new Delivery.Malformed(queue, deliveryId, deliveries, fields,
                    "missing field " + (jobId == null ? JOB_ID : PAYLOAD));
        }
        if (!payloadLimit.admits(payload)) {
            return new Delivery.Malformed(queue, deliveryId, deliveries, fields,
                    "payload is larger than the limit of " + payloadLimit.maxBytes() + " bytes");
        }
        try {
            int attempt = Integer.parseInt(fields.getOrDefault(ATTEMPT, "0"));
            Instant enqueuedAt = Instant.ofEpochMilli(Long.parseLong(fields.getOrDefault(ENQUEUED_AT, "0")));
            Map<String, String> headers = new HashMap<>(fields);
            headers.keySet().removeAll(RESERVED);
            Job job = new Job(JobId.of(jobId), queue, Optional.ofNullable(fields.get(TYPE)), payload, attempt,
                    enqueuedAt, Optional.empty(), Optional.empty(), headers);
            return new Delivery.Leased(queue, deliveryId, deliveries, job);
        } catch (NumberFormatException | InvalidValueException e) {
            return new Delivery.Malformed(queue, deliveryId, deliveries, fields, "invalid job: " + e.getMessage());
        }
    }

    /** A stream entry id: milliseconds and a sequence number, ordered like Redis orders them. */
    private record EntryId(long millis, long sequence) implements Comparable<EntryId> {
        static final EntryId ZERO = new EntryId(0, 0);
        private static final Comparator<EntryId> ORDER =
                Comparator.comparingLong(EntryId::millis).thenComparingLong(EntryId::sequence);

        static EntryId parse(String value) {
            int dash = value.indexOf('-');
            if (dash < 0) {
                throw new IllegalArgumentException("not a stream entry id: " + value);
            }
            return new EntryId(Long.parseLong(value.substring(0, dash)), Long.parseLong(value.substring(dash + 1)));
        }

        @Override
        public int compareTo(EntryId other) {
            return ORDER.compare(this, other);
        }

        @Override
        public String toString() {
            return millis + "-" + sequence;
        }
    }

    /** Hands out increasing ids from the clock, like {@code XADD *}: never backwards, even if the clock is. */
    private static final class EntryIds {
        private EntryId last = EntryId.ZERO;

        EntryId next(Instant now) {
            long millis = now.toEpochMilli();
            last = millis > last.millis ? new EntryId(millis, 0) : new EntryId(last.millis, last.sequence + 1);
            return last;
        }
    }

    private record PendingEntry(String owner, Instant lastDelivery, long deliveries) {
        PendingEntry redelivered(String newOwner, Instant now) {
            return new PendingEntry(newOwner, now, deliveries + 1);
        }
    }

    private record DelayedJob(Instant dueAt, long sequence, Job job) {
        static final Comparator<DelayedJob> ORDER =
                Comparator.comparing(DelayedJob::dueAt).thenComparingLong(DelayedJob::sequence);
    }

    private static final class QueueState {
        final TreeMap<EntryId, Map<String, String>> stream = new TreeMap<>();
        final TreeMap<EntryId, PendingEntry> pending = new TreeMap<>();
        final Map<String, Instant> consumers = new HashMap<>();
        final TreeSet<DelayedJob> delayed = new TreeSet<>(DelayedJob.ORDER);
        final TreeMap<EntryId, DeadLetter> dead = new TreeMap<>();
        final EntryIds streamIds = new EntryIds();
        final EntryIds deadIds = new EntryIds();
        EntryId lastDelivered = EntryId.ZERO;
        long delayedSequence;

        void append(Map<String, String> fields, Instant now) {
            stream.put(streamIds.next(now), fields);
        }

        void delay(Job job, Instant dueAt) {
            delayed.add(new DelayedJob(dueAt, delayedSequence++, job));
        }

        void seen(String consumer, Instant now) {
            consumers.put(consumer, now);
        }

        Optional<EntryId> firstUndelivered() {
            return Optional.ofNullable(stream.higherKey(lastDelivered));
        }

        /** The oldest entry the group still needs: its oldest pending entry or its first undelivered one. */
        Optional<EntryId> safeBound() {
            Optional<EntryId> oldestPending = pending.isEmpty() ? Optional.empty() : Optional.of(pending.firstKey());
            Optional<EntryId> undelivered = firstUndelivered();
            if (oldestPending.isPresent() && undelivered.isPresent()) {
                return Optional.of(oldestPending.get().compareTo(undelivered.get()) < 0
                        ? oldestPending.get() : undelivered.get());
            }
            return oldestPending.or(() -> undelivered);
        }

        long ownedBy(String consumer) {
            return pending.values().stream().filter(entry -> entry.owner.equals(consumer)).count();
        }

        List<StoredDeadLetter> selectDead(DeadLetterSelection selection) {
            return dead.entrySet().stream()
                    .map(entry -> new StoredDeadLetter(DeadLetterId.of(entry.getKey().toString()), entry.getValue()))
                    .filter(selection::matches)
                    .toList();
        }
    }
}
