package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;
import static dev.baton.adapters.redis.RedisValues.number;
import static dev.baton.adapters.redis.Utf8.bytes;

import dev.baton.adapters.redis.LuaScripts.Script;
import dev.baton.adapters.redis.QueueLayout.Located;
import dev.baton.application.port.out.Delivery;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.Job;
import dev.baton.domain.QueueName;
import io.lettuce.core.ScriptOutputType;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves of entries between a partition's stream, delayed set and dead letters. Each is one Lua script on the keys of
 * one partition (one hash slot), so a job is in exactly one place at any moment an observer can see.
 */
final class EntryMoves {
    private static final Logger LOG = LoggerFactory.getLogger(EntryMoves.class);

    private final LuaScripts scripts;
    private final Partitions partitions;
    private final WireMapping wire;
    private final Clock clock;

    EntryMoves(LuaScripts scripts, Partitions partitions, WireMapping wire, Clock clock) {
        this.scripts = scripts;
        this.partitions = partitions;
        this.wire = wire;
        this.clock = clock;
    }

    /** Acknowledges the delivery and puts {@code retried} into the delayed set; nothing when it is not pending. */
    void retryLater(Delivery delivery, Job retried) {
        Optional<Located> located = partitions.layout("retry", delivery.queue()).locate(delivery.id().value());
        Instant due = retried.notBefore().orElseGet(clock::instant);
        byte[] member = bytes(wire.delayedMember(delivery.id().value(), wire.fields(retried)));
        // the retry waits in the delayed set of the delivery's own partition: one slot for the script
        Long moved = located.isEmpty() ? 0L : call("retry", delivery.queue(), () -> {
            QueueKeys keys = located.get().keys();
            return scripts.run(Script.RETRY_LATER, ScriptOutputType.INTEGER,
                    new byte[][] {keys.stream(), keys.delayed(), keys.isolated(), keys.uniqueEntries(), keys.totals()},
                    keys.group(),
                    bytes(located.get().entryId()),
                    number(due.toEpochMilli()), member);
        });
        if (moved == 0) {
            LOG.info("Entry {} of queue {} was no longer pending, so job {} was not scheduled for a retry",
                    delivery.id(), delivery.queue(), retried.id());
        }
    }

    /**
     * Acknowledges the delivery and appends {@code letter} to the dead letters, unless the job's dead letter is still
     * there (then it is only acknowledged); nothing when it is not pending.
     */
    void deadLetter(Delivery delivery, DeadLetter letter) {
        Optional<Located> located = partitions.layout("dead-letter", delivery.queue()).locate(delivery.id().value());
        Object deadId = located.isEmpty() ? null : call("dead-letter", delivery.queue(), () -> {
            QueueKeys keys = located.get().keys();
            String entryId = located.get().entryId();
            List<String> jobFields = wire.deadJobFields(letter);
            List<byte[]> args = new ArrayList<>();
            args.add(keys.group());
            args.add(bytes(entryId));
            // a malformed entry is copied byte for byte from the stream: its fields as Java text are escaped
            args.add(bytes(letter.job().isEmpty() ? "1" : "0"));
            args.add(bytes(DeadJobKey.of(letter, entryId)));
            args.add(number(jobFields.size()));
            jobFields.forEach(field -> args.add(bytes(field)));
            wire.deadFields(letter, entryId).forEach(field -> args.add(bytes(field)));
            return scripts.run(Script.DEAD_LETTER, ScriptOutputType.VALUE,
                    new byte[][] {keys.stream(), keys.dead(), keys.deadJobs(), keys.isolated(), keys.uniqueEntries(),
                        keys.totals()},
                    args.toArray(byte[][]::new));
        });
        if (deadId == null) {
            LOG.info("Entry {} of queue {} was no longer pending, so it was not dead-lettered", delivery.id(),
                    delivery.queue());
        }
    }

    /**
     * Appends the dead letter of a job that never reached a stream to its queue's dead letters, on its job's
     * partition (the first, for a letter without a job), once per dead job key (dead_letter_unpublished.lua).
     */
    void deadLetterUnpublished(DeadLetter letter, String origin) {
        partitions.ensureDeclared(letter.queue());
        QueueLayout layout = partitions.layout("dead-letter", letter.queue());
        QueueKeys keys = letter.job().map(layout::route).orElseGet(() -> layout.all().get(0));
        List<byte[]> args = new ArrayList<>();
        args.add(bytes(DeadJobKey.of(letter, origin)));
        wire.deadJobFields(letter).forEach(field -> args.add(bytes(field)));
        wire.deadFields(letter, origin).forEach(field -> args.add(bytes(field)));
        call("dead-letter", letter.queue(), () -> scripts.run(Script.DEAD_LETTER_UNPUBLISHED, ScriptOutputType.VALUE,
                new byte[][] {keys.dead(), keys.deadJobs(), keys.totals()}, args.toArray(byte[][]::new)));
    }

    /** Moves up to {@code max} delayed jobs due at {@code now} into their partition's stream. */
    int promoteDue(QueueName queue, Instant now, int max) {
        QueueLayout layout = partitions.layout("promote", queue);
        return call("promote", queue, () -> {
            int moved = 0;
            for (QueueKeys keys : layout.all()) {
                if (moved == max) {
                    break;
                }
                Long n = scripts.run(Script.PROMOTE_DUE, ScriptOutputType.INTEGER,
                        new byte[][] {keys.delayed(), keys.stream(), keys.uniqueEntries()},
                        number(now.toEpochMilli()), number(max - moved), bytes(keys.uniqueLockPrefix()));
                moved += n.intValue();
            }
            return moved;
        });
    }

    /**
     * Moves the partition's dead letters with these entry ids back into its stream, as new entries; the caller
     * translates failures.
     *
     * @return how many were moved (ids no longer there are skipped)
     */
    int redrive(QueueKeys keys, List<String> entryIds) {
        byte[][] args = entryIds.stream().map(Utf8::bytes).toArray(byte[][]::new);
        Long moved = scripts.run(Script.REDRIVE, ScriptOutputType.INTEGER,
                new byte[][] {keys.dead(), keys.stream(), keys.deadJobs()}, args);
        return moved.intValue();
    }

    /**
     * Deletes the partition's dead letters with these entry ids; the caller translates failures.
     *
     * @return how many were deleted (ids no longer there are skipped)
     */
    int purge(QueueKeys keys, List<String> entryIds) {
        byte[][] args = entryIds.stream().map(Utf8::bytes).toArray(byte[][]::new);
        Long deleted = scripts.run(Script.PURGE_DEAD_LETTERS, ScriptOutputType.INTEGER,
                new byte[][] {keys.dead(), keys.deadJobs()}, args);
        return deleted.intValue();
    }
}
