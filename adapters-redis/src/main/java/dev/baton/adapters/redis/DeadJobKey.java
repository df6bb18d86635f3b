package dev.baton.adapters.redis;

import dev.baton.domain.DeadLetter;

/**
 * The key of a dead letter in its partition's {@link QueueKeys#deadJobs} hash: the job id, or for a malformed entry
 * without one, {@code entry:} and its entry id (unique within the partition). The Lua scripts that redrive or purge
 * dead letters compute the same key from the dead letter's fields.
 */
final class DeadJobKey {
    private DeadJobKey() {
    }

    static String of(DeadLetter letter, String entryId) {
        return letter.jobId().filter(id -> !id.isEmpty()).orElse("entry:" + entryId);
    }
}
