package dev.baton.bootstrap.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.EffectRecords;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class VerdictTest {
    private static final int JOBS = 1_000;
    private static final QueueStats DRAINED = stats(0, 0, 0, 0);

    @Test
    void everyJobCommittedOnceWithOneRowEachPasses() {
        Verdict verdict = Verdict.exactlyOnce(JOBS, true, DRAINED, JOBS, shipments(JOBS, JOBS));

        assertThat(verdict.exactlyOnce()).isTrue();
        assertThat(verdict.checked()).isEqualTo("ledger rows 1000, demo_shipments rows 1000 (1000 distinct jobs), "
                + "each job committed once, none pending/delayed/dead");
    }

    @Test
    void anEffectThatRanTwiceFailsTheRunThoughTheLedgerCountsOnce() {
        Verdict verdict = Verdict.exactlyOnce(JOBS, true, DRAINED, JOBS, shipments(JOBS + 1, JOBS));

        assertThat(verdict.exactlyOnce()).isFalse();
        assertThat(verdict.checked()).contains("demo_shipments rows 1001 (1000 distinct jobs)");
    }

    @Test
    void oneEffectTwiceAndAnotherMissingFailsThoughTheRowsAddUp() {
        assertThat(Verdict.exactlyOnce(JOBS, true, DRAINED, JOBS, shipments(JOBS, JOBS - 1)).exactlyOnce()).isFalse();
    }

    @Test
    void aJobMissingFromTheLedgerOrFromTheEffectsFailsTheRun() {
        assertThat(Verdict.exactlyOnce(JOBS, true, DRAINED, JOBS - 1, shipments(JOBS, JOBS)).exactlyOnce())
                .isFalse();
        assertThat(Verdict.exactlyOnce(JOBS, true, DRAINED, JOBS, shipments(JOBS - 1, JOBS - 1)).exactlyOnce())
                .isFalse();
        assertThat(Verdict.exactlyOnce(JOBS, true, DRAINED, JOBS - 1, Optional.empty()).exactlyOnce()).isFalse();
    }

    @Test
    void aHandlerWithoutRowsIsJudgedByTheLedgerAlone() {
        Verdict verdict = Verdict.exactlyOnce(JOBS, true, DRAINED, JOBS, Optional.empty());

        assertThat(verdict.exactlyOnce()).isTrue();
        assertThat(verdict.checked())
                .isEqualTo("ledger rows 1000, each job committed once, none pending/delayed/dead");
    }

    @Test
    void aJobTheWorkerDidNotSeeCompleteOnceFailsEitherMode() {
        assertThat(Verdict.exactlyOnce(JOBS, false, DRAINED, JOBS, shipments(JOBS, JOBS)).exactlyOnce()).isFalse();
        assertThat(Verdict.atLeastOnce(false, DRAINED).exactlyOnce()).isFalse();
    }

    @Test
    void pendingUndeliveredDelayedOrDeadJobsLeftFailEitherMode() {
        for (QueueStats left : List.of(stats(1, 0, 0, 0), stats(0, 1, 0, 0), stats(0, 0, 1, 0), stats(0, 0, 0, 1))) {
            assertThat(Verdict.exactlyOnce(JOBS, true, left, JOBS, shipments(JOBS, JOBS)).exactlyOnce())
                    .as("%s", left).isFalse();
            assertThat(Verdict.atLeastOnce(true, left).exactlyOnce()).as("%s", left).isFalse();
        }
    }

    @Test
    void atLeastOnceTrustsWhatTheWorkerSaw() {
        Verdict verdict = Verdict.atLeastOnce(true, DRAINED);

        assertThat(verdict.exactlyOnce()).isTrue();
        assertThat(verdict.checked()).isEqualTo("each job's handler completed once (no retry, no redelivery), all "
                + "acknowledged, none pending/delayed/dead");
    }

    private static Optional<EffectRecords.Count> shipments(long rows, long distinctJobs) {
        return Optional.of(new EffectRecords.Count("demo_shipments", rows, distinctJobs));
    }

    private static QueueStats stats(long pending, long lag, long delayed, long dead) {
        return new QueueStats(QueueName.of("bench-test"), JOBS, OptionalLong.of(lag), pending, Duration.ZERO,
                List.of(), delayed, dead, 0, 0, false);
    }
}
