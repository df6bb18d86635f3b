package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.service.JobThreads;
import dev.baton.application.service.worker.WorkerSettings.Admission;
import dev.baton.application.service.worker.WorkerSettings.Dispatching;
import dev.baton.application.service.worker.WorkerSettings.Housekeeping;
import dev.baton.application.service.worker.WorkerSettings.Leasing;
import dev.baton.application.service.worker.WorkerSettings.Polling;
import dev.baton.application.service.worker.WorkerSettings.Retries;
import dev.baton.application.service.worker.WorkerSettings.Stopping;
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

        assertThat(defaults.leasing().lease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.admission().deliveryLimit().maxDeliveries()).isEqualTo(5);
        assertThat(defaults.retries().jobTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(defaults.polling().block()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.polling().promoteInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(defaults.leasing().extendInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.leasing().recoveryInterval()).isEqualTo(Duration.ofSeconds(15));
        assertThat(defaults.stopping().grace()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.dispatching().jobThreads()).isEqualTo(JobThreads.AUTO);
    }

    @Test
    void batchedCommitsRunOnPlatformThreadsUnlessVirtualOnesAreAsked() {
        Dispatching batched = Dispatching.DEFAULT.withBatchCommit(32);

        assertThat(batched.runsJobsOn()).isEqualTo(JobThreads.PLATFORM);
        assertThat(WorkerSettings.DEFAULTS.dispatching().runsJobsOn()).isEqualTo(Runtime.version().feature() >= 24
                ? JobThreads.VIRTUAL : JobThreads.PLATFORM);
    }

    @Test
    void virtualJobThreadsAreCheckedAgainstTheRunningJvm() {
        if (Runtime.version().feature() >= JobThreads.VIRTUAL_SINCE) {
            assertThat(Dispatching.DEFAULT.withJobThreads(JobThreads.VIRTUAL).jobThreads())
                    .isEqualTo(JobThreads.VIRTUAL);
        } else {
            assertThatThrownBy(() -> Dispatching.DEFAULT.withJobThreads(JobThreads.VIRTUAL))
                    .isInstanceOf(InvalidValueException.class)
                    .hasMessageContaining("this runtime is Java " + Runtime.version().feature());
        }
    }

    @Test
    void aNewLeaseBringsItsExtensionIntervalAlong() {
        WorkerSettings settings = WorkerSettings.DEFAULTS.with(Leasing.of(Duration.ofSeconds(3)));

        assertThat(settings.leasing().extendInterval()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void nonsenseIsRejected() {
        assertThatThrownBy(() -> Retries.DEFAULT.withJobTimeout(Duration.ZERO))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("job timeout");
        assertThatThrownBy(() -> Stopping.DEFAULT.withGrace(Duration.ofSeconds(-1)))
                .isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> Admission.DEFAULT.withNoHandlerGrace(Duration.ofSeconds(-1)))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("no-handler grace");
        assertThatThrownBy(() -> Leasing.DEFAULT.withExtendInterval(Duration.ofSeconds(20)))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("half the lease");
    }

    @Test
    void eachRoomChangesItsOwnSettingsOnly() {
        WorkerSettings d = WorkerSettings.DEFAULTS;
        RetryPolicy policy = RetryPolicy.DEFAULT.withMaxAttempts(9);
        Housekeeping housekeeping = new Housekeeping(Duration.ofMinutes(2), new Retention(Duration.ofHours(2)),
                Duration.ofHours(3));
        Polling polling = Polling.DEFAULT.withBlock(Duration.ofMillis(500))
                .withPromoteInterval(Duration.ofMillis(100));

        WorkerSettings changed = d.with(new Admission(new DeliveryLimit(7), Duration.ofMinutes(6)))
                .with(d.retries().withRetryPolicy(policy))
                .with(housekeeping)
                .with(new Stopping(Duration.ofSeconds(3), Duration.ofSeconds(4)))
                .with(polling)
                .with(d.leasing().withExtendInterval(Duration.ofSeconds(5))
                        .withRecoveryInterval(Duration.ofSeconds(7)));

        assertThat(changed).isEqualTo(new WorkerSettings(
                new Leasing(d.leasing().lease(), Duration.ofSeconds(5), Duration.ofSeconds(7)),
                new Retries(policy, d.retries().jobTimeout()),
                new Admission(new DeliveryLimit(7), Duration.ofMinutes(6)),
                polling, housekeeping, new Stopping(Duration.ofSeconds(3), Duration.ofSeconds(4)), d.dispatching()));
    }

    @Test
    void transactionsFillFullBatchesAndAreAtLeastFourUnlessFewerJobs() {
        assertThat(WorkerSettings.transactionsAtOnce(32, 1)).as("one by one").isEqualTo(32);
        assertThat(WorkerSettings.transactionsAtOnce(32, 16)).isEqualTo(4);
        assertThat(WorkerSettings.transactionsAtOnce(32, 50)).isEqualTo(4);
        assertThat(WorkerSettings.transactionsAtOnce(128, 16)).isEqualTo(8);
        assertThat(WorkerSettings.transactionsAtOnce(1024, 256)).isEqualTo(4);
        assertThat(WorkerSettings.transactionsAtOnce(2, 16)).isEqualTo(2);
    }

    @Test
    void aTransactionTakesOnlyItsShareOfTheConcurrencySoEachHasJobs() {
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
