package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeaseAheadTest {
    private static final long WAIT = LeaseAhead.WAIT.toNanos();

    @Test
    void leasesNothingAheadBeforeABatchEnded() {
        assertThat(new LeaseAhead(4, 8).depth()).isZero();
    }

    @Test
    void leasesAsManyAheadAsTheRunningJobsEndWithinTheWait() {
        LeaseAhead ahead = new LeaseAhead(4, 100);

        ahead.batchTook(WAIT / 2); // four job threads, each ending a job twice within the wait

        assertThat(ahead.depth()).isEqualTo(8);
    }

    @Test
    void jobsLongerThanTheWaitForEveryJobThreadGetNothingAhead() {
        LeaseAhead ahead = new LeaseAhead(4, 8);

        ahead.batchTook(WAIT * 4 + 1);

        assertThat(ahead.depth()).isZero();
    }

    @Test
    void followsTheRecentBatchesNotTheFirstOnly() {
        LeaseAhead ahead = new LeaseAhead(4, 8);
        ahead.batchTook(Duration.ofSeconds(2).toNanos());
        assertThat(ahead.depth()).isZero();

        for (int i = 0; i < 100; i++) {
            ahead.batchTook(Duration.ofMillis(1).toNanos());
        }

        assertThat(ahead.depth()).isEqualTo(8);
    }

    @Test
    void noneLeasesNothingAhead() {
        LeaseAhead none = LeaseAhead.none();

        none.batchTook(1);

        assertThat(none.depth()).isZero();
    }

    @Test
    void singleCommitsLeaseAheadWhatTheirJobThreadsEndWithinTheWait() {
        LeaseAhead single = LeaseAhead.forWorker(16, 1);

        single.batchTook(WAIT * 8); // each of the 16 job threads ends an eighth of a job within the wait

        assertThat(single.depth()).isEqualTo(2);
    }

    @Test
    void batchedCommitsCountTheJobsOfTheirFullBatches() {
        LeaseAhead batched = LeaseAhead.forWorker(64, 16); // four transactions of 16

        batched.batchTook(WAIT * 64); // each ends 16 jobs every 64 waits: one job within one

        assertThat(batched.depth()).isEqualTo(1);
    }

    @Test
    void leasesAtMostAQuarterOfTheConcurrencyAheadRoundedUp() {
        LeaseAhead sixteen = LeaseAhead.forWorker(16, 1);
        LeaseAhead one = LeaseAhead.forWorker(1, 1);
        LeaseAhead seventeen = LeaseAhead.forWorker(17, 1);

        List.of(sixteen, one, seventeen).forEach(ahead -> ahead.batchTook(1));

        assertThat(sixteen.depth()).isEqualTo(4);
        assertThat(one.depth()).isEqualTo(1);
        assertThat(seventeen.depth()).isEqualTo(5);
    }

    @Test
    void refusesNonsense() {
        assertThatThrownBy(() -> new LeaseAhead(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LeaseAhead(1, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
