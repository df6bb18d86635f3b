package dev.baton.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.EnqueueJobsUseCase;
import dev.baton.application.port.in.EnqueueUniqueJobUseCase;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.DueHorizon;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import dev.baton.domain.Uniqueness;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class EnqueueServiceTest {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private final MutableClock clock = MutableClock.at(NOW);
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final List<Job> enqueued = new CopyOnWriteArrayList<>();
    private final EnqueueService service = new EnqueueService(transport, clock, new PayloadLimit(16),
            new JobObserver() {
                @Override
                public void jobEnqueued(Job job) {
                    enqueued.add(job);
                }
            });
    private final QueueName queue = QueueName.of("mail");

    @Test
    void aJobDueNowGoesToTheStreamStampedWithTheClock() {
        Job job = service.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("m-1"), "{}").withType("welcome"));

        assertThat(job.enqueuedAt()).isEqualTo(NOW);
        assertThat(job.notBefore()).isEmpty();
        assertThat(job.attempt()).isZero();
        assertThat(job.type()).contains("welcome");
        assertThat(transport.find(queue, JobId.of("m-1"))).containsInstanceOf(JobSighting.Waiting.class);
        assertThat(enqueued).containsExactly(job);
    }

    @Test
    void aUniqueEnqueueWhileTheKeyIsHeldAddsNothingAndNamesTheHolder() {
        EnqueueUniqueJobUseCase.Outcome first = service.enqueueUnique(new EnqueueUniqueJobUseCase.Command(
                EnqueueJobUseCase.Command.now(queue, JobId.of("u-1"), "{}"), Uniqueness.of("digest")));
        EnqueueUniqueJobUseCase.Outcome second = service.enqueueUnique(new EnqueueUniqueJobUseCase.Command(
                EnqueueJobUseCase.Command.now(queue, JobId.of("u-2"), "{}"), Uniqueness.of("digest")));

        assertThat(first).isInstanceOf(EnqueueUniqueJobUseCase.Outcome.Enqueued.class);
        assertThat(second).isEqualTo(new EnqueueUniqueJobUseCase.Outcome.AlreadyHeld(JobId.of("u-1")));
        assertThat(transport.stats(queue).length()).isEqualTo(1);
        assertThat(enqueued).extracting(Job::id).containsExactly(JobId.of("u-1"));
        assertThat(Uniqueness.carriedBy(enqueued.get(0))).contains(Uniqueness.of("digest"));
    }

    @Test
    void aDelayOrAFutureInstantDelaysTheJob() {
        Job afterDelay = service.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("d-1"), "{}")
                .after(Duration.ofMinutes(5)));
        Job atInstant = service.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("d-2"), "{}")
                .at(NOW.plusSeconds(60)));

        assertThat(afterDelay.notBefore()).contains(NOW.plusSeconds(300));
        assertThat(atInstant.notBefore()).contains(NOW.plusSeconds(60));
        assertThat(transport.stats(queue).delayed()).isEqualTo(2);
        assertThat(transport.stats(queue).length()).isZero();
    }

    @Test
    void aDueTimeThatIsNotInTheFutureMeansNow() {
        Job past = service.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("p-1"), "{}")
                .at(NOW.minusSeconds(60)));
        Job zero = service.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("p-2"), "{}")
                .after(Duration.ZERO));

        assertThat(past.notBefore()).isEmpty();
        assertThat(zero.notBefore()).isEmpty();
        assertThat(transport.stats(queue).length()).isEqualTo(2);
    }

    @Test
    void anOversizedPayloadIsRefusedWithBothSizes() {
        assertThatThrownBy(() -> service.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("big"),
                "x".repeat(17)))).isInstanceOf(InvalidValueException.class).hasMessageContaining("17")
                .hasMessageContaining("16");

        assertThat(transport.stats(queue).length()).isZero();
        assertThat(enqueued).isEmpty();
    }

    @Test
    void aBulkEnqueueKeepsOrderAndPublishesNothingWhenOneJobIsInvalid() {
        List<Job> jobs = service.enqueueAll(new EnqueueJobsUseCase.Command(List.of(
                EnqueueJobUseCase.Command.now(queue, JobId.of("b-1"), "{}"),
                EnqueueJobUseCase.Command.now(queue, JobId.of("b-2"), "{}").after(Duration.ofSeconds(1)),
                new EnqueueJobUseCase.Command(queue, JobId.of("b-3"), Optional.empty(), "{}", Map.of("h", "v"),
                        Optional.empty(), Optional.empty()))));

        assertThat(jobs).extracting(job -> job.id().value()).containsExactly("b-1", "b-2", "b-3");
        assertThat(jobs.get(2).headers()).containsEntry("h", "v");
        assertThat(transport.stats(queue).length()).isEqualTo(2);
        assertThat(transport.stats(queue).delayed()).isEqualTo(1);
        assertThatThrownBy(() -> service.enqueueAll(new EnqueueJobsUseCase.Command(List.of(
                EnqueueJobUseCase.Command.now(queue, JobId.of("ok"), "{}"),
                EnqueueJobUseCase.Command.now(queue, JobId.of("too-big"), "x".repeat(17))))))
                .isInstanceOf(InvalidValueException.class);
        assertThat(transport.stats(queue).length()).isEqualTo(2);
        assertThat(enqueued).hasSize(3);
    }

    /** Every enqueue of the service refuses a due time beyond the horizon, and publishes nothing then. */
    @Nested
    class DueTimes {
        private final EnqueueJobUseCase.Command farAhead = EnqueueJobUseCase.Command.now(queue, JobId.of("far"), "{}")
                .at(NOW.plus(DueHorizon.MAX_AHEAD).plusSeconds(1));

        @Test
        void theHorizonItselfIsAccepted() {
            Job latest = service.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("l-1"), "{}")
                    .at(NOW.plus(DueHorizon.MAX_AHEAD)));
            Job longest = service.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("l-2"), "{}")
                    .after(DueHorizon.MAX_AHEAD));

            assertThat(latest.notBefore()).contains(NOW.plus(DueHorizon.MAX_AHEAD));
            assertThat(longest.notBefore()).contains(NOW.plus(DueHorizon.MAX_AHEAD));
        }

        @Test
        void aDueTimeBeyondItIsRefusedOnEveryEnqueue() {
            assertThatThrownBy(() -> service.enqueue(farAhead)).isInstanceOf(InvalidValueException.class)
                    .hasMessageContaining("more than 10 years (3653 days) ahead");
            assertThatThrownBy(() -> service.enqueueUnique(new EnqueueUniqueJobUseCase.Command(farAhead,
                    Uniqueness.of("k")))).isInstanceOf(InvalidValueException.class);
            assertThatThrownBy(() -> service.enqueueAll(new EnqueueJobsUseCase.Command(List.of(
                    EnqueueJobUseCase.Command.now(queue, JobId.of("ok"), "{}"), farAhead))))
                    .isInstanceOf(InvalidValueException.class);

            assertThat(transport.stats(queue).length()).isZero();
            assertThat(transport.stats(queue).delayed()).isZero();
        }

        @Test
        void aDelayBeyondItIsRefusedBeforeAnyArithmetic() {
            EnqueueJobUseCase.Command command = EnqueueJobUseCase.Command.now(queue, JobId.of("d"), "{}");

            assertThatThrownBy(() -> command.after(DueHorizon.MAX_AHEAD.plusMillis(1)))
                    .isInstanceOf(InvalidValueException.class).hasMessageStartingWith("delay ");
            assertThatThrownBy(() -> command.after(Duration.ofSeconds(Long.MAX_VALUE)))
                    .isInstanceOf(InvalidValueException.class);
        }
    }

    @Test
    void aHeaderNameThatIsNoTokenIsRefused() {
        assertThatThrownBy(() -> service.enqueue(new EnqueueJobUseCase.Command(queue, JobId.of("h"),
                Optional.empty(), "{}", Map.of("bad\nname", "v"), Optional.empty(), Optional.empty())))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("header name 'bad\\u000Aname'");

        assertThat(transport.stats(queue).length()).isZero();
    }
}
