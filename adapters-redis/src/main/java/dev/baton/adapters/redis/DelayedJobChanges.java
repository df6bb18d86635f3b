package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;
import static dev.baton.adapters.redis.RedisValues.number;
import static dev.baton.adapters.redis.Utf8.bytes;

import dev.baton.adapters.redis.JobLookup.DelayedMember;
import dev.baton.adapters.redis.LuaScripts.Script;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import io.lettuce.core.ScriptOutputType;
import java.time.Instant;
import java.util.Optional;

/**
 * An operator's changes to one delayed job: made due now, or removed. The member is found by scanning
 * ({@link JobLookup}), then changed by a script that acts only if the set still holds that exact member, so a job
 * promoted in between is left alone.
 */
final class DelayedJobChanges {
    private final LuaScripts scripts;
    private final JobLookup lookup;

    DelayedJobChanges(LuaScripts scripts, JobLookup lookup) {
        this.scripts = scripts;
        this.lookup = lookup;
    }

    boolean makeDue(QueueName queue, JobId id, Instant now) {
        return call("make due", queue, () -> {
            Optional<DelayedMember> found = lookup.delayedMember(queue, id);
            return found.isPresent() && ran(scripts.run(Script.MAKE_DUE, ScriptOutputType.INTEGER,
                    new byte[][] {found.get().keys().delayed()}, found.get().member(), number(now.toEpochMilli())));
        });
    }

    boolean remove(QueueName queue, JobId id) {
        return call("remove delayed", queue, () -> {
            Optional<DelayedMember> found = lookup.delayedMember(queue, id);
            return found.isPresent() && ran(scripts.run(Script.REMOVE_DELAYED, ScriptOutputType.INTEGER,
                    new byte[][] {found.get().keys().delayed()}, found.get().member(),
                    bytes(found.get().keys().uniqueLockPrefix())));
        });
    }

    private static boolean ran(Long changed) {
        return changed == 1L;
    }
}
