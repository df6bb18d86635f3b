package dev.baton.bootstrap.wiring;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The types {@code Baton.use(Class)} answers, each with the part that answers it: the one place where a type is
 * looked up by its class, because that public method must.
 */
final class Answers {
    private final Map<Class<?>, Supplier<?>> byType = new LinkedHashMap<>();

    <T> Answers add(Class<T> type, Supplier<? extends T> part) {
        if (byType.putIfAbsent(type, part) != null) {
            throw new IllegalStateException(type.getName() + " is answered twice");
        }
        return this;
    }

    /** @throws IllegalArgumentException for a type not answered here, naming those that are */
    <T> T get(Class<T> type) {
        Supplier<?> part = byType.get(type);
        if (part == null) {
            TreeSet<String> known = new TreeSet<>();
            byType.keySet().forEach(answered -> known.add(answered.getSimpleName()));
            throw new IllegalArgumentException("Baton.use(...) does not answer " + type.getName() + "; it answers "
                    + String.join(", ", known));
        }
        return type.cast(part.get());
    }
}
