package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.in.ReadQueueTotalsUseCase;
import dev.baton.application.port.out.TransportException;
import dev.baton.application.testing.MutableClock;
import dev.baton.bootstrap.admin.ThroughputSampler.Rates;
import dev.baton.bootstrap.admin.ThroughputSampler.Sample;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueTotals;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ThroughputSamplerTest {
    private static final QueueName ORDERS = QueueName.of("orders");
    private static final QueueName MAIL = QueueName.of("mail");

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-12-01T10:00:00Z"));
    private final Map<QueueName, QueueTotals> totals = new LinkedHashMap<>();
    private final List<List<QueueName>> asked = new ArrayList<>();
    private final AtomicBoolean redisDown = new AtomicBoolean();
    private final ReadQueueTotalsUseCase reader = command -> {
        asked.add(command.queues());
        if (redisDown.get()) {
            throw new TransportException("Redis totals failed: connection refused");
        }
        Map<QueueName, QueueTotals> answer = new LinkedHashMap<>();
        command.queues().forEach(queue -> answer.put(queue, totals.getOrDefault(queue, QueueTotals.none(queue))));
        return answer;
    };
    private final ThroughputSampler sampler =
            new ThroughputSampler(reader, () -> List.of(ORDERS, MAIL), clock, 3, UnaryOperator.identity());

    @Test
    void ratesAreTheTotalsDifferencesPerSecondFromTheSecondReadingOn() {
        totals.put(ORDERS, new QueueTotals(ORDERS, 10, 1, 0));
        sampler.runOnce();
        assertThat(sampler.subscribe(sample -> { })).isEmpty();

        clock.advance(Duration.ofSeconds(2));
        totals.put(ORDERS, new QueueTotals(ORDERS, 16, 2, 1));
        sampler.runOnce();

        Sample sample = single(sampler.subscribe(any -> { }));
        assertThat(sample.at()).isEqualTo(clock.instant());
        assertThat(sample.queues()).containsEntry(ORDERS, new Rates(3, 0.5, 0.5))
                .containsEntry(MAIL, new Rates(0, 0, 0));
        assertThat(asked).containsOnly(List.of(ORDERS, MAIL));
    }

    @Test
    void aTotalThatWentDownCountsFromZeroAndAFailedReadingIsSkipped() {
        totals.put(ORDERS, new QueueTotals(ORDERS, 100, 0, 0));
        sampler.runOnce();
        clock.advance(Duration.ofSeconds(1));
        totals.put(ORDERS, new QueueTotals(ORDERS, 4, 0, 0)); // deleted and used again
        sampler.runOnce();
        redisDown.set(true);
        clock.advance(Duration.ofSeconds(1));
        sampler.runOnce();
        redisDown.set(false);
        clock.advance(Duration.ofSeconds(1));
        totals.put(ORDERS, new QueueTotals(ORDERS, 10, 0, 0));
        sampler.runOnce();

        assertThat(sampler.subscribe(sample -> { })).extracting(sample -> sample.queues().get(ORDERS).completed())
                .containsExactly(4.0, 3.0);
    }

    @Test
    void aSubscriberGetsTheBoundedHistoryThenEachNewSample() {
        for (int i = 0; i < 5; i++) {
            clock.advance(Duration.ofSeconds(1));
            sampler.runOnce();
        }
        List<Sample> received = new ArrayList<>();

        List<Sample> history = sampler.subscribe(received::add);
        clock.advance(Duration.ofSeconds(1));
        sampler.runOnce();

        assertThat(history).hasSize(3).extracting(Sample::at).isSorted();
        assertThat(received).singleElement().extracting(Sample::at).isEqualTo(clock.instant());
    }

    private static <T> T single(List<T> items) {
        assertThat(items).hasSize(1);
        return items.get(0);
    }
}
