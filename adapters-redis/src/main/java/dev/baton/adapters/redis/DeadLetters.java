package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;
import static dev.baton.adapters.redis.RedisValues.fields;

import dev.baton.adapters.redis.QueueLayout.Located;
import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * A queue's dead letters, for operators: listed page by page, redriven into the stream, purged. They live in one
 * stream per partition, so a listing goes partition by partition and its cursor names the partition.
 */
final class DeadLetters {
    private final RedisClusterCommands<byte[], byte[]> redis;
    private final Partitions partitions;
    private final EntryMoves moves;
    private final WireMapping wire;

    DeadLetters(RedisClusterCommands<byte[], byte[]> redis, Partitions partitions, EntryMoves moves,
                WireMapping wire) {
        this.redis = redis;
        this.partitions = partitions;
        this.moves = moves;
        this.wire = wire;
    }

    List<StoredDeadLetter> list(QueueName queue, Optional<DeadLetterId> after, int limit) {
        QueueLayout layout = partitions.layout("list dead letters", queue);
        // partition by partition: a cursor names its partition and the entry after which to go on
        Optional<Located> cursor = after.map(id -> layout.locate(id.value()).orElseThrow(
                () -> new InvalidValueException("'" + id + "' is not a dead letter id of queue " + queue)));
        int first = cursor.map(located -> located.keys().partition()).orElse(0);
        return call("list dead letters", queue, () -> {
            List<StoredDeadLetter> letters = new ArrayList<>();
            for (int p = first; p < layout.partitions() && letters.size() < limit; p++) {
                Optional<String> from = p == first ? cursor.map(Located::entryId) : Optional.empty();
                letters.addAll(page(layout.partition(p), from, limit - letters.size()));
            }
            return letters;
        });
    }

    /** One dead letter by its id: an {@code XRANGE} of one entry. */
    Optional<StoredDeadLetter> find(QueueName queue, DeadLetterId id) {
        Optional<Located> located = partitions.layout("read a dead letter", queue).locate(id.value())
                .filter(place -> EntryId.isEntryId(place.entryId()));
        if (located.isEmpty()) {
            return Optional.empty();
        }
        QueueKeys keys = located.get().keys();
        String entryId = located.get().entryId();
        return call("read a dead letter", queue, () -> redis.xrange(keys.dead(), Range.create(entryId, entryId),
                Limit.from(1)).stream().findFirst().map(message -> stored(keys, message)));
    }

    /** Up to {@code limit} dead letters of the partition, oldest first, after the entry id {@code after}. */
    List<StoredDeadLetter> page(QueueKeys keys, Optional<String> after, int limit) {
        Range<String> range = after
                .map(id -> Range.from(Range.Boundary.excluding(id), Range.Boundary.<String>unbounded()))
                .orElse(Range.unbounded());
        List<StoredDeadLetter> letters = new ArrayList<>();
        for (StreamMessage<byte[], byte[]> message : redis.xrange(keys.dead(), range, Limit.from(limit))) {
            letters.add(stored(keys, message));
        }
        return letters;
    }

    /** A dead-letter stream's entry, with the port's id (partition-qualified when the queue has partitions). */
    private StoredDeadLetter stored(QueueKeys keys, StreamMessage<byte[], byte[]> message) {
        StoredDeadLetter stored = wire.deadLetter(keys.queue(), message.getId(), fields(message));
        return new StoredDeadLetter(DeadLetterId.of(keys.idOf(stored.id().value())), stored.letter());
    }

    /** The entry id in an id of the port ({@code <partition>/<entry id>}, or the entry id alone). */
    static String entryId(DeadLetterId id) {
        return id.value().substring(id.value().indexOf('/') + 1);
    }

    int redrive(QueueName queue, DeadLetterSelection selection) {
        QueueLayout layout = partitions.layout("redrive", queue);
        partitions.ensureDeclared(queue);
        return call("redrive", queue, () -> forSelected(layout, selection, moves::redrive));
    }

    int purge(QueueName queue, DeadLetterSelection selection) {
        QueueLayout layout = partitions.layout("purge dead letters", queue);
        return call("purge dead letters", queue, () -> forSelected(layout, selection, moves::purge));
    }

    /**
     * Applies {@code action} to the selected dead letters (their entry ids), one batch (one atomic script or command)
     * of one partition at a time.
     */
    private int forSelected(QueueLayout layout, DeadLetterSelection selection,
                            BiFunction<QueueKeys, List<String>, Integer> action) {
        int done = 0;
        if (selection instanceof DeadLetterSelection.ByIds byIds) {
            for (Map.Entry<QueueKeys, List<String>> partition : layout.byPartition(byIds.ids()).entrySet()) {
                for (List<String> batch : IdBatches.of(partition.getValue())) {
                    done += action.apply(partition.getKey(), batch);
                }
            }
            return done;
        }
        for (QueueKeys keys : layout.all()) {
            Optional<String> after = Optional.empty();
            while (true) {
                // a page is at most one batch: its selected ids go in one call
                List<StoredDeadLetter> page = page(keys, after, IdBatches.SIZE);
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
}
