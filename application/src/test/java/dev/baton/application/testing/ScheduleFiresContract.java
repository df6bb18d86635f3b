package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.ScheduleFires;
import dev.baton.domain.Job;
import dev.baton.domain.Schedule;
import dev.baton.domain.ScheduleState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The guarantees every {@link ScheduleFires} gives, as tests; see {@link TransportFixture} for the setup. */
public abstract class ScheduleFiresContract extends TransportFixture {
    private static final Instant T1 = BASE.plusSeconds(1);
    private static final Instant T2 = BASE.plusSeconds(2);

    private ScheduleFires fires() {
        return subject().scheduleFires();
    }

    private Schedule tick() {
        return Schedule.of("tick", "every 1s", queue.value(), "{\"n\":1}");
    }

    /** Every job now in the stream, read with one lease. */
    private List<Job> enqueued() {
        return leases().lease(queue, alice, 1000, SHORT_BLOCK).deliveries().stream().map(d -> leased(d).job()).toList();
    }

    @Test
    void aScheduleNoSchedulerSawHasNoState() {
        assertThat(fires().state(tick())).isEqualTo(ScheduleState.NEVER_SEEN);
    }

    @Test
    void aFireEnqueuesTheFireTimesJobAndSettlesThroughIt() {
        assertThat(fires().fire(tick(), T1)).isTrue();

        assertThat(enqueued()).containsExactly(tick().jobAt(T1));
        assertThat(fires().state(tick())).isEqualTo(new ScheduleState(Optional.of(T1), Optional.of(T1)));
    }

    @Test
    void aFireTimeAlreadySettledIsNotEnqueuedAgain() {
        fires().fire(tick(), T2);

        assertThat(fires().fire(tick(), T2)).isFalse();
        assertThat(fires().fire(tick(), T1)).isFalse();
        assertThat(enqueued()).extracting(Job::id).containsExactly(tick().jobId(T2));
    }

    @Test
    void settlingSkipsWithoutEnqueuingAndNeverMovesBack() {
        fires().fire(tick(), T1);
        fires().settle(tick(), T2);
        fires().settle(tick(), BASE);

        assertThat(fires().state(tick())).isEqualTo(new ScheduleState(Optional.of(T2), Optional.of(T1)));
        assertThat(fires().fire(tick(), T2)).isFalse();
        assertThat(enqueued()).extracting(Job::id).containsExactly(tick().jobId(T1));
    }

    @Test
    void schedulesOfOneQueueKeepStatesOfTheirOwn() {
        Schedule other = Schedule.of("tock", "every 1s", queue.value(), "{}");
        fires().fire(tick(), T2);

        assertThat(fires().fire(other, T1)).isTrue();
        assertThat(fires().state(other).lastFire()).contains(T1);
    }

    @Test
    void schedulersFiringTheSameTimesAtOnceEnqueueEachOnce() {
        List<Instant> times = IntStream.rangeClosed(1, 30).mapToObj(BASE::plusSeconds).toList();
        ConcurrentLinkedQueue<Instant> wins = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Void>> schedulers = new ArrayList<>();
        for (int scheduler = 0; scheduler < 4; scheduler++) {
            schedulers.add(CompletableFuture.runAsync(() -> times.forEach(time -> {
                if (fires().fire(tick(), time)) {
                    wins.add(time);
                }
            })));
        }
        schedulers.forEach(CompletableFuture::join);

        assertThat(wins).containsExactlyInAnyOrderElementsOf(times);
        assertThat(enqueued()).extracting(Job::id)
                .containsExactlyElementsOf(times.stream().map(tick()::jobId).toList());
    }
}
