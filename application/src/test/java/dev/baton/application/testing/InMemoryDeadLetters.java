package dev.baton.application.testing;

import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.JobId;
import dev.baton.domain.StoredDeadLetter;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One queue's dead-letter stream in memory: letters in death order under stream ids from the clock. Not thread-safe:
 * the transport's monitor guards every call.
 */
final class InMemoryDeadLetters {
    private final TreeMap<EntryId, DeadLetter> letters = new TreeMap<>();
    private final EntryIds ids = new EntryIds();
    private final Map<String, EntryId> origins = new HashMap<>();

    void add(DeadLetter letter, Instant now) {
        letters.put(ids.next(now), letter);
    }

    /** Adds a letter from no stream entry, under {@code origin}, unless one from that origin is there. */
    void addOnce(DeadLetter letter, String origin, Instant now) {
        EntryId there = origins.get(origin);
        if (there == null || !letters.containsKey(there)) {
            EntryId id = ids.next(now);
            letters.put(id, letter);
            origins.put(origin, id);
        }
    }

    int size() {
        return letters.size();
    }

    List<StoredDeadLetter> page(Optional<DeadLetterId> after, int limit) {
        NavigableMap<EntryId, DeadLetter> page = after
                .map(id -> letters.tailMap(EntryId.parse(id.value()), false))
                .orElse(letters);
        return page.entrySet().stream().limit(limit).map(InMemoryDeadLetters::stored).toList();
    }

    List<StoredDeadLetter> select(DeadLetterSelection selection) {
        return letters.entrySet().stream().map(InMemoryDeadLetters::stored).filter(selection::matches).toList();
    }

    void remove(DeadLetterId id) {
        letters.remove(EntryId.parse(id.value()));
    }

    Optional<StoredDeadLetter> withJobId(JobId id) {
        return withJobId(id.value());
    }

    Optional<StoredDeadLetter> withJobId(String id) {
        return letters.entrySet().stream()
                .filter(entry -> entry.getValue().jobId().filter(id::equals).isPresent())
                .findFirst()
                .map(InMemoryDeadLetters::stored);
    }

    private static StoredDeadLetter stored(Map.Entry<EntryId, DeadLetter> entry) {
        return new StoredDeadLetter(DeadLetterId.of(entry.getKey().toString()), entry.getValue());
    }
}
