package dev.baton.application.service.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lets one event per key through per interval, by the clock: a log line per job type and minute, say, instead of one
 * per job. Thread-safe. It forgets keys whose interval has passed once it holds {@link #MOST_KEYS}, so that producers
 * writing ever new keys cannot grow it without end.
 */
final class Throttle {
    static final int MOST_KEYS = 1_000;

    private final Clock clock;
    private final Duration interval;
    private final Map<String, Instant> lastAdmitted = new ConcurrentHashMap<>();

    Throttle(Clock clock, Duration interval) {
        this.clock = clock;
        this.interval = interval;
    }

    /** True for the first event of {@code key}, then once its interval has passed since the last one let through. */
    boolean admits(String key) {
        Instant now = clock.instant();
        if (lastAdmitted.size() >= MOST_KEYS) {
            lastAdmitted.values().removeIf(last -> !now.isBefore(last.plus(interval)));
        }
        Instant[] admitted = new Instant[1];
        lastAdmitted.compute(key, (ignored, last) -> {
            if (last != null && now.isBefore(last.plus(interval))) {
                return last;
            }
            admitted[0] = now;
            return now;
        });
        return admitted[0] != null;
    }
}
