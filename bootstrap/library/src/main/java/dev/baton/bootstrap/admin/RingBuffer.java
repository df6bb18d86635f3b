package dev.baton.bootstrap.admin;

import java.util.ArrayList;
import java.util.List;

/** The last {@code capacity} items added, oldest first; adding to a full buffer drops the oldest. Thread-safe. */
final class RingBuffer<T> {
    private final Object[] items;
    private int next;
    private int size;

    RingBuffer(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.items = new Object[capacity];
    }

    synchronized void add(T item) {
        items[next] = item;
        next = (next + 1) % items.length;
        size = Math.min(size + 1, items.length);
    }

    /** A copy of what the buffer holds, oldest first. */
    @SuppressWarnings("unchecked")
    synchronized List<T> snapshot() {
        List<T> copy = new ArrayList<>(size);
        int oldest = (next - size + items.length) % items.length;
        for (int i = 0; i < size; i++) {
            copy.add((T) items[(oldest + i) % items.length]);
        }
        return copy;
    }
}
