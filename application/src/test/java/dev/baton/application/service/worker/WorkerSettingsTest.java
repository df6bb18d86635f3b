package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.service.JobThreads;
import dev.baton.domain.DeliveryLimit;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Retention;
import dev.baton.domain.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WorkerSettingsTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        WorkerSettings defaults = WorkerSettings.DEFAULTS;

        assertThat(defaults.lease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.deliveryLimit().maxDeliveries()).isEqualTo(5);
        assertThat(defaults.jobTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(defaults.block()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.promoteInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(defaults.extendInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.recoveryInterval()).isEqualTo(Duration.ofSeconds(15));
        assertThat(defaults.grace()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.jobThreads()).isEqualTo(JobThreads.AUTO);
    }

    @Test
    void batchedCommitsRunOnPlatformThreadsUnlessVirtualOnesAreAskedFor() {
        WorkerSettings batched = WorkerSettings.DEFAULTS.withBatchCommit(32);

        assertThat(batched.runsJobsOn()).isEqualTo(JobThreads.PLATFORM);
        assertThat(WorkerSettings.DEFAULTS.runsJobsOn()).isEqualTo(Runtime.version().feature() >= 24
                ? JobThreads.VIRTUAL : JobThreads.PLATFORM);
    }

    @Test
    void virtualJobThreadsAreCheckedAgainstTheRunningJvm() {
        if (Runtime.version().feature() >= JobThreads.VIRTUAL_SINCE) {
            assertThat(WorkerSettings.DEFAULTS.withJobThreads(JobThreads.VIRTUAL).jobThreads())
                    .isEqualTo(JobThreads.VIRTUAL);
        } else {
            assertThatThrownBy(() -> WorkerSettings.DEFAULTS.withJobThreads(JobThreads.VIRTUAL))
                    .isInstanceOf(InvalidValueException.class)
                    .hasMessageContaining("this runtime is Java " + Runtime.version().feature());
        }
    }

    @Test
    void aNewLeaseBringsItsExtensionIntervalAlong() {
        WorkerSettings settings = WorkerSettings.DEFAULTS.withLease(Duration.ofSeconds(3));

        assertThat(settings.extendInterval()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void nonsenseIsRejected() {
        assertThatThrownBy(() -> WorkerSettings.DEFAULTS.withJobTimeout(Duration.ZERO))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("job timeout");
        assertThatThrownBy(() -> WorkerSettings.DEFAULTS.withGrace(Duration.ofSeconds(-1)))
                .isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> WorkerSettings.DEFAULTS.withNoHandlerGrace(Duration.ofSeconds(-1)))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("no-handler grace");
        assertThatThrownBy(() -> WorkerSettings.DEFAULTS.withIntervals(Duration.ofSeconds(1),
                Duration.ofSeconds(1), Duration.ofSeconds(20), Duration.ofSeconds(1)))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("half the lease");
    }

    @Test
    void theBuilderStartsFromTheDefaultsAndValidatesWhatItBuilds() {
        WorkerSettings built = WorkerSettings.builder().jobTimeout(Duration.ofSeconds(5)).batchCommit(8).build();

        assertThat(built).isEqualTo(WorkerSettings.DEFAULTS.withJobTimeout(Duration.ofSeconds(5)).withBatchCommit(8));
        assertThatThrownBy(() -> WorkerSettings.builder().extendInterval(Duration.ofSeconds(20)).build())
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("half the lease");
    }

    @Test
    void eachWitherChangesItsOwnSettingsOnly() {
        WorkerSettings d = WorkerSettings.DEFAULTS;
        RetryPolicy policy = RetryPolicy.DEFAULT.withMaxAttempts(9);

        WorkerSettings changed = d.withDeliveryLimit(new DeliveryLimit(7)).withRetryPolicy(policy)
                .withHousekeeping(Duration.ofMinutes(2), new Retention(Duration.ofHours(2)), Duration.ofHours(3))
                .withGrace(Duration.ofSeconds(3))
                .withCancelGrace(Duration.ofSeconds(4))
                .withNoHandlerGrace(Duration.ofMinutes(6))
                .withIntervals(Duration.ofMillis(500), Duration.ofMillis(100), Duration.ofSeconds(5),
                        Duration.ofSeconds(7));

        assertThat(changed).isEqualTo(new WorkerSettings(d.lease(), new DeliveryLimit(7), policy, d.jobTimeout(),
                Duration.ofMillis(500), Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofSeconds(7),
                Duration.ofMinutes(2), new Retention(Duration.ofHours(2)), Duration.ofHours(3), Duration.ofSeconds(3),
                d.batchCommit(), d.jobThreads(), Duration.ofSeconds(4), Duration.ofMinutes(6)));
    }

    @Test
    void batchedTransactionsAreEnoughForFullBatchesAndAtLeastFourUnlessTheConcurrencyIsLower() {
        assertThat(WorkerSettings.transactionsAtOnce(32, 1)).as("one by one").isEqualTo(32);
        assertThat(WorkerSettings.transactionsAtOnce(32, 16)).isEqualTo(4);
        assertThat(WorkerSettings.transactionsAtOnce(32, 50)).isEqualTo(4);
        assertThat(WorkerSettings.transactionsAtOnce(128, 16)).isEqualTo(8);
        assertThat(WorkerSettings.transactionsAtOnce(1024, 256)).isEqualTo(4);
        assertThat(WorkerSettings.transactionsAtOnce(2, 16)).isEqualTo(2);
    }

    @Test
    void aTransactionTakesNoMoreThanItsShareOfTheConcurrencySoThatEveryTransactionHasJobs() {
        assertThat(WorkerSettings.jobsPerTransaction(32, 1)).as("one by one").isEqualTo(1);
        assertThat(WorkerSettings.jobsPerTransaction(64, 16)).as("four full batches").isEqualTo(16);
        assertThat(WorkerSettings.jobsPerTransaction(64, 64)).as("a quarter each, not one batch of all")
                .isEqualTo(16);
        assertThat(WorkerSettings.jobsPerTransaction(128, 64)).isEqualTo(32);
        assertThat(WorkerSettings.jobsPerTransaction(30, 16)).as("rounded up").isEqualTo(8);
        assertThat(WorkerSettings.jobsPerTransaction(1024, 256)).isEqualTo(256);
        assertThat(WorkerSettings.jobsPerTransaction(2, 16)).as("as many transactions as jobs").isEqualTo(1);
    }
}
