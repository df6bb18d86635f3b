package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.Uniqueness;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What {@link JobPublisher#publishUnique} promises: a uniqueness key admits one job while that job waits, is delayed
 * or runs, survives its retries, and is released by its terminal move (or a period after its completion).
 */
public abstract class UniqueJobsContract extends TransportFixture {
    private static final Uniqueness KEY = Uniqueness.of("report:2030-01-01");

    @Test
    void aSecondEnqueueWithTheKeyAddsNothingAndNamesTheJobThatHoldsIt() {
        assertThat(publishUnique("first", KEY)).isEqualTo(JobId.of("first"));
        assertThat(publishUnique("second", KEY)).isEqualTo(JobId.of("first"));

        assertThat(jobIds(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries())).containsExactly("first");
        assertThat(publishUnique("third", KEY)).as("held while running").isEqualTo(JobId.of("first"));
    }

    @Test
    void otherKeysAreIndependent() {
        publishUnique("first", KEY);

        assertThat(publishUnique("other", Uniqueness.of("report:2030-01-02"))).isEqualTo(JobId.of("other"));
        assertThat(jobIds(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries()))
                .containsExactlyInAnyOrder("first", "other");
    }

    @Test
    void aDelayedJobHoldsItsKey() {
        publisher().publishUnique(KEY.on(plainJob("later").notBefore(BASE.plusSeconds(3600))));

        assertThat(publishUnique("now", KEY)).isEqualTo(JobId.of("later"));
        assertThat(administration().stats(queue).delayed()).isEqualTo(1);
        assertThat(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries()).isEmpty();
    }

    @Test
    void theKeyIsReleasedWhenItsDelayedJobIsRemoved() {
        publisher().publishUnique(KEY.on(plainJob("later").notBefore(BASE.plusSeconds(3600))));

        delayedJobs().removeDelayed(queue, JobId.of("later"));

        assertThat(publishUnique("now", KEY)).isEqualTo(JobId.of("now"));
    }

    @Test
    void theKeyIsReleasedWhenItsJobIsAcknowledged() {
        publishUnique("first", KEY);
        Delivery delivery = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());

        leases().acknowledge(queue, List.of(delivery.id()));

        assertThat(publishUnique("second", KEY)).isEqualTo(JobId.of("second"));
        assertThat(jobIds(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries())).containsExactly("second");
    }

    @Test
    void theKeyIsReleasedWhenItsJobIsDeadLettered() {
        publishUnique("doomed", KEY);
        Delivery delivery = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());

        leases().deadLetter(delivery, DeadLetter.of(leased(delivery).job(), DeadLetterReason.EXHAUSTED, ERROR, 3,
                BASE));

        assertThat(publishUnique("next", KEY)).isEqualTo(JobId.of("next"));
    }

    @Test
    void aRetryKeepsTheKeyUntilTheRetriedJobIsAcknowledged() {
        publishUnique("flaky", KEY);
        Delivery first = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());
        Instant due = BASE.plusSeconds(60);
        leases().retryLater(first, leased(first).job().retriedAfter(ERROR, due));

        assertThat(publishUnique("while-delayed", KEY)).isEqualTo(JobId.of("flaky"));
        maintenance().promoteDue(queue, due, 10);
        Delivery second = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());
        assertThat(leased(second).job().attempt()).isEqualTo(1);
        assertThat(publishUnique("while-retrying", KEY)).isEqualTo(JobId.of("flaky"));

        leases().acknowledge(queue, List.of(second.id()));
        assertThat(publishUnique("after", KEY)).isEqualTo(JobId.of("after"));
    }

    @Test
    void aKeyWithAPeriodOutlivesItsCompletionForThatPeriod() {
        Uniqueness daily = KEY.andFor(MIN_IDLE);
        publishUnique("first", daily);
        Delivery delivery = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());
        leases().acknowledge(queue, List.of(delivery.id()));

        assertThat(publishUnique("too-soon", daily)).isEqualTo(JobId.of("first"));
        elapse(MIN_IDLE.plusMillis(200));
        assertThat(publishUnique("later", daily)).isEqualTo(JobId.of("later"));
    }

    @Test
    void aDeadLetteredJobReleasesItsKeyAtOnceEvenWithAPeriod() {
        Uniqueness daily = KEY.andFor(Duration.ofHours(1));
        publishUnique("doomed", daily);
        Delivery delivery = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());

        leases().deadLetter(delivery, DeadLetter.of(leased(delivery).job(), DeadLetterReason.NON_RETRYABLE, ERROR, 1,
                BASE));

        assertThat(publishUnique("next", daily)).isEqualTo(JobId.of("next"));
    }

    @Test
    void aPendingEntryThatVanishedReleasesItsKeyWhenReclaimingFindsIt() {
        publishUnique("lost", KEY);
        Delivery delivery = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());
        deleteFromStream(queue, delivery.id());
        elapse(MIN_IDLE);

        assertThat(maintenance().reclaimAbandoned(queue, bob, MIN_IDLE, 10).vanished()).containsExactly(delivery.id());

        assertThat(publishUnique("next", KEY)).isEqualTo(JobId.of("next"));
    }

    @Test
    void aJobWithoutAKeyIsRefused() {
        assertThatThrownBy(() -> publisher().publishUnique(plainJob("plain")))
                .isInstanceOf(InvalidValueException.class);
        assertThat(administration().stats(queue).length()).isZero();
    }

    private JobId publishUnique(String id, Uniqueness uniqueness) {
        return publisher().publishUnique(uniqueness.on(plainJob(id)));
    }

    /** A unique job goes to the partition of its key, so the suites' partition-key header is left off. */
    private Job plainJob(String id) {
        return job(id).withHeaders(Map.of());
    }
}
