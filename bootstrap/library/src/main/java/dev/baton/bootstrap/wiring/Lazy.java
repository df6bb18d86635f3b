package dev.baton.bootstrap.wiring;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A part made on its first use and kept for the instance's life: what makes the first enqueue open Redis and the first
 * worker or query open PostgreSQL. A making that fails (a server down) is not kept: the next use tries again.
 */
final class Lazy<T> implements Supplier<T> {
    private final Supplier<? extends T> make;
    private volatile T made;

    Lazy(Supplier<? extends T> make) {
        this.make = Objects.requireNonNull(make, "make");
    }

    @Override
    public T get() {
        T part = made;
        if (part == null) {
            synchronized (this) {
                part = made;
                if (part == null) {
                    part = Objects.requireNonNull(make.get(), "a lazy part made null");
                    made = part;
                }
            }
        }
        return part;
    }

    /** Whether the part was made already: a caller may then use it without making anything. */
    boolean isMade() {
        return made != null;
    }
}
