package dev.baton.bootstrap.admin;

import dev.baton.application.port.in.ReadQueueTotalsUseCase;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueTotals;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the queues' running totals (counted in Redis by every worker) into per-second rates: each {@link #runOnce}
 * reads the totals of all queues in one call and compares them with the previous reading. Keeps the last samples in
 * a ring buffer (15 minutes at one a second) and hands each new one to the subscribers.
 */
final class ThroughputSampler {
    private static final Logger LOG = LoggerFactory.getLogger(ThroughputSampler.class);

    /** Jobs per second of one queue between two readings. */
    record Rates(double completed, double retried, double dead) {
    }

    /** The rates of every queue over the second (or so) before {@code at}. */
    record Sample(Instant at, Map<QueueName, Rates> queues) {
        Sample {
            queues = Map.copyOf(queues);
        }
    }

    private final ReadQueueTotalsUseCase totals;
    private final Supplier<List<QueueName>> queues;
    private final Clock clock;
    private final UnaryOperator<String> redact;
    private final RingBuffer<Sample> history;
    private final Set<Consumer<Sample>> subscribers = new CopyOnWriteArraySet<>();
    private Map<QueueName, QueueTotals> previous = Map.of();
    private Instant previousAt;

    ThroughputSampler(ReadQueueTotalsUseCase totals, Supplier<List<QueueName>> queues, Clock clock,
                      int capacity, UnaryOperator<String> redact) {
        this.totals = totals;
        this.queues = queues;
        this.clock = clock;
        this.redact = redact;
        this.history = new RingBuffer<>(capacity);
    }

    /**
     * Reads the totals once; from the second reading on, records and publishes the rates since the one before. A
     * failed reading (Redis away) is logged and skipped: the next one measures over the longer interval.
     */
    synchronized void runOnce() {
        Map<QueueName, QueueTotals> now;
        try {
            now = totals.totals(new ReadQueueTotalsUseCase.Command(queues.get()));
        } catch (RuntimeException e) {
            LOG.warn("dashboard could not read the queues' totals: {}", redact.apply(String.valueOf(e.getMessage())));
            return;
        }
        Instant at = clock.instant();
        if (previousAt != null && at.isAfter(previousAt)) {
            double seconds = Duration.between(previousAt, at).toNanos() / 1e9;
            Map<QueueName, Rates> rates = new LinkedHashMap<>();
            now.forEach((queue, current) -> rates.put(queue,
                    rates(previous.getOrDefault(queue, current), current, seconds)));
            Sample sample = new Sample(at, rates);
            history.add(sample);
            subscribers.forEach(subscriber -> subscriber.accept(sample));
        }
        previous = now;
        previousAt = at;
    }

    /**
     * Subscribes to the samples to come and returns the ones held, atomically: the subscriber misses none and sees
     * none twice.
     */
    synchronized List<Sample> subscribe(Consumer<Sample> subscriber) {
        subscribers.add(subscriber);
        return history.snapshot();
    }

    void unsubscribe(Consumer<Sample> subscriber) {
        subscribers.remove(subscriber);
    }

    /** A total that went down (the queue was deleted and started again) counts from zero. */
    private static Rates rates(QueueTotals before, QueueTotals after, double seconds) {
        return new Rates(rate(before.completed(), after.completed(), seconds),
                rate(before.retried(), after.retried(), seconds), rate(before.dead(), after.dead(), seconds));
    }

    private static double rate(long before, long after, double seconds) {
        return (after >= before ? after - before : after) / seconds;
    }
}
