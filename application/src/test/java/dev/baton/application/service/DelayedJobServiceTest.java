package dev.baton.application.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.in.DelayedJobChange;
import dev.baton.application.port.in.DeleteDelayedJobUseCase;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.RunJobNowUseCase;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link DelayedJobService}: a delayed job run now or deleted, and where it is when it is not delayed. */
class DelayedJobServiceTest {
    private static final QueueName QUEUE = QueueName.of("reports");

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00Z"));
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private final DelayedJobService service = new DelayedJobService(transport,
            new QueueQueryService(transport, transport, Optional.of(ledger), ledger), clock);

    @Test
    void aJobRunNowIsDueAtTheClocksTime() {
        transport.publish(job("later").notBefore(clock.instant().plus(Duration.ofHours(1))));

        assertThat(service.runNow(new RunJobNowUseCase.Command(QUEUE, JobId.of("later"))))
                .isInstanceOf(DelayedJobChange.Changed.class);
        assertThat(transport.nextDue(QUEUE)).contains(clock.instant());
    }

    @Test
    void aDeletedJobIsUnknownAfterwards() {
        transport.publish(job("later").notBefore(clock.instant().plus(Duration.ofHours(1))));

        assertThat(delete("later")).isInstanceOf(DelayedJobChange.Changed.class);
        assertThat(delete("later")).isEqualTo(new DelayedJobChange.NotDelayed(new Whereabouts.Unknown()));
    }

    @Test
    void aJobNotDelayedIsLeftAloneAndLocated() {
        transport.publish(job("waiting"));

        DelayedJobChange change = service.runNow(new RunJobNowUseCase.Command(QUEUE, JobId.of("waiting")));

        assertThat(change).isInstanceOfSatisfying(DelayedJobChange.NotDelayed.class, notDelayed ->
                assertThat(notDelayed.whereabouts()).isInstanceOfSatisfying(Whereabouts.InTransport.class, found ->
                        assertThat(found.sighting()).isInstanceOf(JobSighting.Waiting.class)));
        assertThat(delete("waiting")).isInstanceOf(DelayedJobChange.NotDelayed.class);
        assertThat(transport.stats(QUEUE).length()).isEqualTo(1);
    }

    private DelayedJobChange delete(String id) {
        return service.delete(new DeleteDelayedJobUseCase.Command(QUEUE, JobId.of(id)));
    }

    private Job job(String id) {
        return Job.create(JobId.of(id), QUEUE, "{}", clock.instant());
    }
}
