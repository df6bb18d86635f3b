package dev.baton.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger.Execution;
import dev.baton.application.testing.InMemoryAuditTrail;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.AuditEntry;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.Retention;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class CompletionJanitorTest {
    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
    private static final QueueName QUEUE = QueueName.of("orders");
    private static final Retention RETENTION = new Retention(Duration.ofDays(2));

    private final MutableClock clock = MutableClock.at(T0);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private final CompletionJanitor janitor = new CompletionJanitor(ledger, RETENTION, clock, Duration.ofMinutes(10));

    @Test
    void forgetsExactlyTheCompletionsOlderThanTheRetentionPlusSlack() {
        Job oldest = complete("oldest");
        clock.advance(Duration.ofMinutes(1));
        Job atTheCutoff = complete("at-the-cutoff");
        clock.advance(Duration.ofMinutes(1));
        Job younger = complete("younger");
        clock.set(T0.plus(Duration.ofMinutes(1)).plus(RETENTION.maxAge()).plus(CompletionJanitor.SLACK));

        assertThat(janitor.runOnce()).isEqualTo(1);

        assertThat(ledger.find(QUEUE, oldest.id())).isEmpty();
        assertThat(ledger.find(QUEUE, atTheCutoff.id())).isPresent();
        assertThat(ledger.find(QUEUE, younger.id())).isPresent();
    }

    @Test
    void forgetsTheAuditEntriesOlderThanTheTrailsRetention() {
        InMemoryAuditTrail trail = new InMemoryAuditTrail();
        CompletionJanitor both = new CompletionJanitor(ledger, RETENTION, Optional.of(new CompletionJanitor.Trail(
                trail, new Retention(Duration.ofDays(90)))), clock, Duration.ofMinutes(10));
        trail.record(audited(T0));
        trail.record(audited(T0.plus(Duration.ofDays(1))));
        clock.set(T0.plus(Duration.ofDays(90)).plusSeconds(1));

        both.runOnce();

        assertThat(trail.recent(Optional.empty(), 10)).extracting(kept -> kept.entry().at())
                .containsExactly(T0.plus(Duration.ofDays(1)));
    }

    @Test
    void startsOnlyOnce() {
        try (CompletionJanitor started = janitor.start()) {
            assertThatThrownBy(started::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("started already");
        }
    }

    private static AuditEntry audited(Instant at) {
        return new AuditEntry(at, Optional.of("operator"), "127.0.0.1", "POST", "/api/queues/orders/pause",
                Optional.of(QUEUE), "queues/pause", "{}", OptionalLong.of(1), 200);
    }

    private Job complete(String id) {
        Job job = Job.create(JobId.of(id), QUEUE, "{}", clock.instant());
        ledger.execute(new Execution(job, ConsumerName.of("worker-a"), new DeliveryId("1-0"), 1,
                clock.instant().plusSeconds(60)), transaction -> Optional.empty());
        return job;
    }
}
