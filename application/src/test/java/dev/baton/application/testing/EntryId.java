package dev.baton.application.testing;

import java.util.Comparator;

/** A stream entry id of the in-memory transport: milliseconds and a sequence number, ordered like Redis orders them. */
record EntryId(long millis, long sequence) implements Comparable<EntryId> {
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
