package dev.baton.adapters.redis;

/** A stream entry id {@code <ms>-<seq>}, both unsigned 64-bit, ordered as Redis orders them. */
record EntryId(long ms, long seq) implements Comparable<EntryId> {
    static final EntryId ZERO = new EntryId(0, 0);

    /** Whether {@code id} reads as an entry id (a dead letter's original id may name something else). */
    static boolean isEntryId(String id) {
        return id.matches("[0-9]{1,20}(-[0-9]{1,20})?");
    }

    static EntryId parse(String id) {
        int dash = id.indexOf('-');
        if (dash < 0) {
            return new EntryId(Long.parseUnsignedLong(id), 0);
        }
        return new EntryId(Long.parseUnsignedLong(id.substring(0, dash)),
                Long.parseUnsignedLong(id.substring(dash + 1)));
    }

    /** The smallest id after this one. */
    EntryId next() {
        return seq == -1L ? new EntryId(ms + 1, 0) : new EntryId(ms, seq + 1);
    }

    static EntryId min(EntryId a, EntryId b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    @Override
    public int compareTo(EntryId other) {
        int byMs = Long.compareUnsigned(ms, other.ms);
        return byMs != 0 ? byMs : Long.compareUnsigned(seq, other.seq);
    }

    @Override
    public String toString() {
        return Long.toUnsignedString(ms) + "-" + Long.toUnsignedString(seq);
    }
}
