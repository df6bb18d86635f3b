package dev.baton.application.testing;

import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.Uniqueness;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The uniqueness keys of one in-memory queue, kept as the Redis adapter keeps them: a lock per key naming the job
 * that holds it (with an expiry only once that job completed and its key outlives it), and which stream entry holds
 * which key, so that an entry's terminal move (acknowledged, dead-lettered, vanished) releases its key.
 */
final class InMemoryUniqueKeys {
    private final Map<String, Lock> locks = new HashMap<>();
    private final Map<EntryId, Job> holders = new HashMap<>();

    /** The job holding {@code key} at {@code now}, if any. */
    Optional<JobId> holder(String key, Instant now) {
        Lock lock = locks.get(key);
        if (lock != null && lock.expiresAt.isPresent() && !lock.expiresAt.get().isAfter(now)) {
            locks.remove(key);
            return Optional.empty();
        }
        return Optional.ofNullable(lock).map(Lock::holder);
    }

    void take(String key, JobId holder) {
        locks.put(key, new Lock(holder, Optional.empty()));
    }

    /** The job entered the stream as {@code entry}: the entry holds its key, if the job holds one. */
    void entered(EntryId entry, Job job) {
        Uniqueness.carriedBy(job).filter(unique -> holds(unique.key(), job.id()))
                .ifPresent(unique -> holders.put(entry, job));
    }

    /** The entry left the stream for the delayed set (a retry): its job keeps the key. */
    void left(EntryId entry) {
        holders.remove(entry);
    }

    /** The entry reached a terminal outcome: its key is released, or expires after its period when it completed. */
    void finished(EntryId entry, boolean completed, Instant now) {
        Job job = holders.remove(entry);
        if (job == null) {
            return;
        }
        Uniqueness unique = Uniqueness.carriedBy(job).orElseThrow();
        if (!holds(unique.key(), job.id())) {
            return;
        }
        if (completed && unique.afterCompletion().isPresent()) {
            locks.put(unique.key(), new Lock(job.id(), Optional.of(now.plus(unique.afterCompletion().get()))));
        } else {
            locks.remove(unique.key());
        }
    }

    /** The job left without running (a delayed job removed): the key it holds is released. */
    void released(Job job) {
        Uniqueness.carriedBy(job).filter(unique -> holds(unique.key(), job.id()))
                .ifPresent(unique -> locks.remove(unique.key()));
    }

    private boolean holds(String key, JobId id) {
        Lock lock = locks.get(key);
        return lock != null && lock.holder.equals(id) && lock.expiresAt.isEmpty();
    }

    private record Lock(JobId holder, Optional<Instant> expiresAt) {
    }
}
