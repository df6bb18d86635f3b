package dev.baton.application.testing;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.ConsumerStats;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import dev.baton.domain.QueueTotals;
import dev.baton.domain.Retention;
import dev.baton.domain.StoredDeadLetter;
import dev.baton.domain.Uniqueness;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * One queue of the in-memory transport, as Redis keeps it: a stream of entries, one consumer group with a
 * last-delivered id and a pending entries list (owner, last delivery, delivery count), a delayed set ordered by due
 * time and a dead-letter stream. Not thread-safe: the transport's monitor guards every call, which makes every move
 * atomic. Times come from the caller (the transport's clock).
 */
final class InMemoryQueue {
    private final QueueName name;
    private final WireFields wire;
    private final TreeMap<EntryId, Map<String, String>> stream = new TreeMap<>();
    private final TreeMap<EntryId, PendingEntry> pending = new TreeMap<>();
    private final Map<String, Instant> consumers = new HashMap<>();
    private final TreeSet<DelayedJob> delayed = new TreeSet<>(DelayedJob.ORDER);
    private final InMemoryDeadLetters dead = new InMemoryDeadLetters();
    /** Entry id to its isolated deliveries, like the Redis hash: recorded by {@link #isolate}, gone with the entry. */
    private final TreeMap<EntryId, Long> isolated = new TreeMap<>();
    private final EntryIds streamIds = new EntryIds();
    private final InMemoryUniqueKeys uniqueKeys = new InMemoryUniqueKeys();
    private EntryId lastDelivered = EntryId.ZERO;
    private long delayedSequence;
    private boolean paused;
    private QueueTotals totals;

    InMemoryQueue(QueueName name, WireFields wire) {
        this.name = name;
        this.wire = wire;
        this.totals = QueueTotals.none(name);
    }

    EntryId append(Map<String, String> fields, Instant now) {
        EntryId id = streamIds.next(now);
        stream.put(id, fields);
        return id;
    }

    /** Publishes a job due now or later, as Redis does with the XADD or ZADD of a job. */
    void publish(Job job, Instant now) {
        if (job.notBefore().isPresent()) {
            delay(job, job.notBefore().get());
        } else {
            uniqueKeys.entered(append(WireFields.of(job), now), job);
        }
    }

    /** Publishes the job unless another holds its uniqueness key; returns the holder's id. */
    JobId publishUnique(Job job, Uniqueness unique, Instant now) {
        Optional<JobId> holder = uniqueKeys.holder(unique.key(), now);
        if (holder.isPresent()) {
            return holder.get();
        }
        uniqueKeys.take(unique.key(), job.id());
        publish(job, now);
        return job.id();
    }

    void delay(Job job, Instant dueAt) {
        delayed.add(new DelayedJob(dueAt, delayedSequence++, job));
    }

    /** Deletes an entry's data but leaves it in the pending list, like {@code XDEL}. */
    void deleteEntry(DeliveryId id) {
        stream.remove(EntryId.parse(id.value()));
    }

    /** Records that {@code consumer} called, like every group command does in Redis. */
    void seen(ConsumerName consumer, Instant now) {
        consumers.put(consumer.value(), now);
    }

    boolean hasUndelivered() {
        return firstUndelivered().isPresent();
    }

    List<Delivery> leaseNew(ConsumerName consumer, int max, Instant now) {
        List<Delivery> deliveries = new ArrayList<>();
        for (Map.Entry<EntryId, Map<String, String>> entry : stream.tailMap(lastDelivered, false).entrySet()) {
            if (deliveries.size() == max) {
                break;
            }
            lastDelivered = entry.getKey();
            pending.put(entry.getKey(), new PendingEntry(consumer.value(), now, 1));
            deliveries.add(wire.delivery(name, entry.getKey(), 1, 0, entry.getValue()));
        }
        return deliveries;
    }

    List<Delivery> leaseOwnPending(ConsumerName consumer, int max, Instant now) {
        seen(consumer, now);
        List<Delivery> deliveries = new ArrayList<>();
        for (Map.Entry<EntryId, PendingEntry> entry : pending.entrySet()) {
            if (deliveries.size() == max) {
                break;
            }
            PendingEntry held = entry.getValue();
            Map<String, String> fields = stream.get(entry.getKey());
            // like XREADGROUP 0: an entry whose data is gone cannot be re-read; XAUTOCLAIM reports it later
            if (held.owner.equals(consumer.value()) && fields != null) {
                PendingEntry redelivered = held.redelivered(consumer.value(), now);
                entry.setValue(redelivered);
                deliveries.add(wire.delivery(name, entry.getKey(), redelivered.deliveries, isolatedOf(entry.getKey()),
                        fields));
            }
        }
        return deliveries;
    }

    void acknowledge(Collection<DeliveryId> ids, Instant now) {
        ids.forEach(id -> {
            if (finish(id)) {
                uniqueKeys.finished(EntryId.parse(id.value()), true, now);
                totals = totals.plus(new QueueTotals(name, 1, 0, 0));
            }
        });
    }

    void retryLater(DeliveryId id, Job retried, Instant dueAt) {
        if (finish(id)) {
            totals = totals.plus(new QueueTotals(name, 0, 1, 0));
        }
        uniqueKeys.left(EntryId.parse(id.value()));
        delay(retried, dueAt);
    }

    /** Once per job id, like the Redis transport: a job whose dead letter is still there is only acknowledged. */
    void deadLetter(DeliveryId id, DeadLetter letter, Instant now) {
        if (finish(id)) {
            uniqueKeys.finished(EntryId.parse(id.value()), false, now);
        }
        if (letter.jobId().flatMap(dead::withJobId).isEmpty()) {
            dead.add(letter, now);
            totals = totals.plus(new QueueTotals(name, 0, 0, 1));
        }
    }

    /** Once per job id, or without one per origin, like the Redis transport, while its dead letter is there. */
    void deadLetterUnpublished(DeadLetter letter, String origin, Instant now) {
        if (letter.jobId().filter(id -> !id.isEmpty()).flatMap(dead::withJobId).isEmpty()) {
            int before = dead.size();
            dead.addOnce(letter, letter.jobId().filter(id -> !id.isEmpty()).orElse("entry:" + origin), now);
            totals = totals.plus(new QueueTotals(name, 0, 0, dead.size() - before));
        }
    }

    /** @return the isolated deliveries, this one included; empty when {@code consumer} does not hold the entry */
    OptionalLong isolate(DeliveryId id, ConsumerName consumer) {
        EntryId entryId = EntryId.parse(id.value());
        PendingEntry held = pending.get(entryId);
        if (held == null || !held.owner.equals(consumer.value())) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(isolated.merge(entryId, 1L, Long::sum));
    }

    /** The entry leaves the pending list, and its isolation record with it; false when it was not pending. */
    private boolean finish(DeliveryId id) {
        EntryId entryId = EntryId.parse(id.value());
        isolated.remove(entryId);
        return pending.remove(entryId) != null;
    }

    private long isolatedOf(EntryId id) {
        return isolated.getOrDefault(id, 0L);
    }

    Set<DeliveryId> extendLeases(ConsumerName consumer, Collection<DeliveryId> ids, Instant now) {
        seen(consumer, now);
        Set<DeliveryId> lost = new HashSet<>();
        for (DeliveryId id : ids) {
            EntryId entryId = EntryId.parse(id.value());
            PendingEntry held = pending.get(entryId);
            if (held != null && held.owner.equals(consumer.value())) {
                pending.put(entryId, new PendingEntry(held.owner, now, held.deliveries));
            } else {
                lost.add(id);
            }
        }
        return lost;
    }

    Reclaimed reclaimAbandoned(ConsumerName consumer, Duration minIdle, int max, Instant now) {
        seen(consumer, now);
        List<Delivery> deliveries = new ArrayList<>();
        List<DeliveryId> vanished = new ArrayList<>();
        Iterator<Map.Entry<EntryId, PendingEntry>> entries = pending.entrySet().iterator();
        while (entries.hasNext() && deliveries.size() + vanished.size() < max) {
            Map.Entry<EntryId, PendingEntry> entry = entries.next();
            PendingEntry held = entry.getValue();
            if (Duration.between(held.lastDelivery, now).compareTo(minIdle) < 0) {
                continue;
            }
            Map<String, String> fields = stream.get(entry.getKey());
            if (fields == null) {
                entries.remove();
                isolated.remove(entry.getKey());
                uniqueKeys.finished(entry.getKey(), false, now);
                vanished.add(new DeliveryId(entry.getKey().toString()));
            } else {
                PendingEntry claimed = held.redelivered(consumer.value(), now);
                entry.setValue(claimed);
                deliveries.add(wire.delivery(name, entry.getKey(), claimed.deliveries, isolatedOf(entry.getKey()),
                        fields));
            }
        }
        return new Reclaimed(deliveries, vanished);
    }

    List<JobSighting.Delayed> delayed(int limit) {
        return delayed.stream().limit(limit).map(job -> new JobSighting.Delayed(job.job, job.dueAt)).toList();
    }

    /** Makes the delayed job with {@code id} due at {@code now}, unless it is due earlier. */
    boolean makeDue(JobId id, Instant now) {
        Optional<DelayedJob> found = delayedJob(id);
        found.filter(job -> job.dueAt.isAfter(now)).ifPresent(job -> {
            delayed.remove(job);
            delayed.add(new DelayedJob(now, job.sequence, job.job));
        });
        return found.isPresent();
    }

    /** Removes the delayed job with {@code id}, releasing the uniqueness key it holds. */
    boolean removeDelayed(JobId id) {
        Optional<DelayedJob> found = delayedJob(id);
        found.ifPresent(job -> {
            delayed.remove(job);
            uniqueKeys.released(job.job);
        });
        return found.isPresent();
    }

    private Optional<DelayedJob> delayedJob(JobId id) {
        return delayed.stream().filter(job -> job.job.id().equals(id)).findFirst();
    }

    /** When the first job of the delayed set is due; empty when the set is empty. */
    Optional<Instant> nextDue() {
        return delayed.isEmpty() ? Optional.empty() : Optional.of(delayed.first().dueAt);
    }

    /** Moves up to {@code max} jobs due at {@code due} into the stream, as entries of {@code now}. */
    int promoteDue(Instant due, int max, Instant now) {
        int moved = 0;
        while (moved < max && !delayed.isEmpty() && !delayed.first().dueAt.isAfter(due)) {
            Job job = delayed.pollFirst().job;
            uniqueKeys.entered(append(WireFields.of(job), now), job);
            moved++;
        }
        return moved;
    }

    QueueStats stats(Instant now) {
        Duration oldestIdle = pending.values().stream()
                .map(held -> Duration.between(held.lastDelivery, now))
                .max(Comparator.naturalOrder())
                .orElse(Duration.ZERO);
        List<ConsumerStats> consumerStats = consumers.entrySet().stream()
                .map(consumer -> new ConsumerStats(consumer.getKey(), ownedBy(consumer.getKey()),
                        Duration.between(consumer.getValue(), now)))
                .sorted(Comparator.comparing(ConsumerStats::name))
                .toList();
        long lag = stream.tailMap(lastDelivered, false).size();
        return new QueueStats(name, stream.size(), OptionalLong.of(lag), pending.size(), oldestIdle, consumerStats,
                delayed.size(), dead.size(), isolated.size(),
                isolated.values().stream().mapToLong(Long::longValue).sum(), paused);
    }

    QueueTotals totals() {
        return totals;
    }

    void paused(boolean paused) {
        this.paused = paused;
    }

    boolean isPaused() {
        return paused;
    }

    TrimOutcome trim(Retention retention, Instant now) {
        EntryId cutoff = new EntryId(now.minus(retention.maxAge()).toEpochMilli(), 0);
        Optional<EntryId> bound = safeBound();
        EntryId minId = bound.filter(b -> b.compareTo(cutoff) < 0).orElse(cutoff);
        NavigableMap<EntryId, Map<String, String>> removable = stream.headMap(minId, false);
        long removed = removable.size();
        removable.clear();
        isolated.headMap(minId, false).clear();
        return new TrimOutcome(removed, bound.filter(b -> b.compareTo(cutoff) < 0)
                .map(b -> List.of(new DeliveryId(b.toString()))).orElse(List.of()));
    }

    List<ConsumerName> removeIdleConsumers(Duration idle, Instant now) {
        return removeConsumers(consumer -> Duration.between(consumers.get(consumer.value()), now).compareTo(idle) > 0);
    }

    /** Removes the consumers {@code chosen} picks that own no pending entries (removing the others would drop them). */
    List<ConsumerName> removeConsumers(Predicate<ConsumerName> chosen) {
        List<ConsumerName> removed = consumers.keySet().stream().map(ConsumerName::of)
                .filter(consumer -> chosen.test(consumer) && ownedBy(consumer.value()) == 0)
                .sorted(Comparator.comparing(ConsumerName::value)).toList();
        removed.forEach(consumer -> consumers.remove(consumer.value()));
        return removed;
    }

    List<StoredDeadLetter> deadLetters(Optional<DeadLetterId> after, int limit) {
        return dead.page(after, limit);
    }

    Optional<StoredDeadLetter> deadLetter(DeadLetterId id) {
        return dead.select(new DeadLetterSelection.ByIds(List.of(id))).stream().findFirst();
    }

    int redrive(DeadLetterSelection selection, Instant now) {
        List<StoredDeadLetter> selected = dead.select(selection);
        for (StoredDeadLetter stored : selected) {
            DeadLetter letter = stored.letter();
            append(letter.job().map(job -> WireFields.of(job.redriven())).orElse(letter.rawFields()), now);
            dead.remove(stored.id());
        }
        return selected.size();
    }

    int purgeDeadLetters(DeadLetterSelection selection) {
        List<StoredDeadLetter> selected = dead.select(selection);
        selected.forEach(stored -> dead.remove(stored.id()));
        return selected.size();
    }

    /** Where the job is held: pending, waiting in the stream, delayed or dead, looked up in that order. */
    Optional<JobSighting> find(JobId id, Instant now) {
        for (Map.Entry<EntryId, PendingEntry> entry : pending.entrySet()) {
            Optional<Job> job = wire.jobWithId(name, stream.get(entry.getKey()), id);
            if (job.isPresent()) {
                PendingEntry held = entry.getValue();
                return Optional.of(new JobSighting.Pending(entry.getKey().toString(), job.get(), held.owner,
                        Duration.between(held.lastDelivery, now), held.deliveries));
            }
        }
        for (Map.Entry<EntryId, Map<String, String>> entry : stream.tailMap(lastDelivered, false).entrySet()) {
            Optional<Job> job = wire.jobWithId(name, entry.getValue(), id);
            if (job.isPresent()) {
                return Optional.of(new JobSighting.Waiting(entry.getKey().toString(), job.get()));
            }
        }
        Optional<DelayedJob> delayedJob = delayedJob(id);
        if (delayedJob.isPresent()) {
            return delayedJob.map(job -> new JobSighting.Delayed(job.job, job.dueAt));
        }
        return dead.withJobId(id).map(JobSighting.Dead::new);
    }

    private Optional<EntryId> firstUndelivered() {
        return Optional.ofNullable(stream.higherKey(lastDelivered));
    }

    /** The oldest entry the group still needs: its oldest pending entry or its first undelivered one. */
    private Optional<EntryId> safeBound() {
        Optional<EntryId> oldestPending = pending.isEmpty() ? Optional.empty() : Optional.of(pending.firstKey());
        Optional<EntryId> undelivered = firstUndelivered();
        if (oldestPending.isPresent() && undelivered.isPresent()) {
            return Optional.of(oldestPending.get().compareTo(undelivered.get()) < 0
                    ? oldestPending.get() : undelivered.get());
        }
        return oldestPending.or(() -> undelivered);
    }

    private long ownedBy(String consumer) {
        return pending.values().stream().filter(entry -> entry.owner.equals(consumer)).count();
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
}
