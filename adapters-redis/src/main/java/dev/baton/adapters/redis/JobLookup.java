package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;
import static dev.baton.adapters.redis.RedisValues.fields;
import static dev.baton.adapters.redis.RedisValues.text;

import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.models.stream.PendingMessage;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Finds where a job is, for operators: waiting or pending in the stream, delayed, or dead. Redis indexes entries by
 * entry id, not job id, so each place is scanned, newest stream entries first, and only so far: a lookup must not
 * keep Redis busy on a huge backlog.
 */
final class JobLookup {
    /** How many entries a lookup looks at per place (stream, delayed set, dead letters) and partition. */
    private static final int SCAN_LIMIT = 10_000;
    /** Entries read per command while scanning: one short command at a time, so Redis serves others in between. */
    private static final int SCAN_PAGE = 500;

    private final RedisClusterCommands<byte[], byte[]> redis;
    private final Partitions partitions;
    private final Groups groups;
    private final DeadLetters deadLetters;
    private final WireMapping wire;

    JobLookup(RedisClusterCommands<byte[], byte[]> redis, Partitions partitions, Groups groups,
              DeadLetters deadLetters, WireMapping wire) {
        this.redis = redis;
        this.partitions = partitions;
        this.groups = groups;
        this.deadLetters = deadLetters;
        this.wire = wire;
    }

    Optional<JobSighting> find(QueueName queue, JobId id) {
        QueueLayout layout = partitions.layout("find", queue);
        return call("find", queue, () -> firstOf(layout, keys -> findInStream(keys, id))
                .or(() -> firstOf(layout, keys -> findDelayed(keys, id)))
                .or(() -> firstOf(layout, keys -> findDead(keys, id))));
    }

    /**
     * The soonest due jobs of every partition's delayed set, merged: {@code limit} per partition at most, so that
     * the merge is exact. A malformed member (which promotion dead-letters) is left out.
     */
    List<JobSighting.Delayed> delayed(QueueName queue, int limit) {
        QueueLayout layout = partitions.layout("list delayed", queue);
        return call("list delayed", queue, () -> layout.all().stream()
                .flatMap(keys -> redis.zrangeWithScores(keys.delayed(), 0, limit - 1).stream()
                        .map(member -> delayedJob(keys, member)).flatMap(Optional::stream))
                .sorted(Comparator.comparing(JobSighting.Delayed::dueAt))
                .limit(limit)
                .toList());
    }

    private Optional<JobSighting.Delayed> delayedJob(QueueKeys keys, ScoredValue<byte[]> member) {
        Instant due = Instant.ofEpochMilli((long) member.getScore());
        return wire.delayedJob(keys.queue(), Utf8.escaped(member.getValue()), due)
                instanceof WireMapping.Entry.Valid valid ? Optional.of(new JobSighting.Delayed(valid.job(), due))
                : Optional.empty();
    }

    private static Optional<JobSighting> firstOf(QueueLayout layout,
                                                 Function<QueueKeys, Optional<JobSighting>> search) {
        return layout.all().stream().map(search).flatMap(Optional::stream).findFirst();
    }

    private Optional<JobSighting> findInStream(QueueKeys keys, JobId id) {
        Optional<Map<String, Object>> group = groups.read(keys);
        if (group.isEmpty()) {
            return Optional.empty();
        }
        EntryId lastDelivered = EntryId.parse(text(group.get().get("last-delivered-id")));
        // everything below what the group still needs is acknowledged history: not held any more
        EntryId needed = groups.needed(keys, group.get());
        Range.Boundary<String> upper = Range.Boundary.unbounded();
        int seen = 0;
        while (seen < SCAN_LIMIT) {
            List<StreamMessage<byte[], byte[]>> page = redis.xrevrange(keys.stream(),
                    Range.from(Range.Boundary.including(needed.toString()), upper), Limit.from(SCAN_PAGE));
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
            if (page.size() < SCAN_PAGE) {
                break;
            }
            upper = Range.Boundary.excluding(page.get(page.size() - 1).getId());
        }
        return Optional.empty();
    }

    /**
     * The delayed set's member holding the job with {@code id}, and its partition's keys: for the scripts that change
     * one member. Scanned as {@link #find} scans; the caller translates failures.
     */
    Optional<DelayedMember> delayedMember(QueueName queue, JobId id) {
        QueueLayout layout = partitions.layout("find delayed", queue);
        return layout.all().stream().map(keys -> delayedMember(keys, id)).flatMap(Optional::stream).findFirst();
    }

    /** A member of a partition's delayed set, as stored, and the job it holds. */
    record DelayedMember(QueueKeys keys, byte[] member, JobSighting.Delayed sighting) {
    }

    private Optional<JobSighting> findDelayed(QueueKeys keys, JobId id) {
        return delayedMember(keys, id).map(DelayedMember::sighting);
    }

    private Optional<DelayedMember> delayedMember(QueueKeys keys, JobId id) {
        for (long from = 0; from < SCAN_LIMIT; from += SCAN_PAGE) {
            // ZRANGE takes an inclusive index range
            List<ScoredValue<byte[]>> page = redis.zrangeWithScores(keys.delayed(), from, from + SCAN_PAGE - 1);
            for (ScoredValue<byte[]> member : page) {
                Optional<JobSighting.Delayed> delayed = delayedJob(keys, member);
                if (delayed.filter(d -> d.job().id().equals(id)).isPresent()) {
                    return delayed.map(sighting -> new DelayedMember(keys, member.getValue(), sighting));
                }
            }
            if (page.size() < SCAN_PAGE) {
                break;
            }
        }
        return Optional.empty();
    }

    private Optional<JobSighting> findDead(QueueKeys keys, JobId id) {
        Optional<String> after = Optional.empty();
        for (int seen = 0; seen < SCAN_LIMIT; seen += SCAN_PAGE) {
            List<StoredDeadLetter> page = deadLetters.page(keys, after, SCAN_PAGE);
            Optional<StoredDeadLetter> found = page.stream()
                    .filter(stored -> stored.letter().jobId().filter(id.value()::equals).isPresent())
                    .reduce((older, newer) -> newer);
            if (found.isPresent()) {
                return found.map(JobSighting.Dead::new);
            }
            if (page.size() < SCAN_PAGE) {
                break;
            }
            after = Optional.of(DeadLetters.entryId(page.get(page.size() - 1).id()));
        }
        return Optional.empty();
    }
}
