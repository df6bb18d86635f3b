package dev.baton.application.service.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.in.ListSchedulesUseCase;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.ScheduleFires;
import dev.baton.application.port.out.TransportException;
import dev.baton.application.testing.InMemoryScheduleFires;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.CatchUp;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.QueueName;
import dev.baton.domain.Schedule;
import dev.baton.domain.ScheduleState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Schedulers driven one pass at a time by a clock the test moves, on the in-memory transport. */
class SchedulerLoopTest {
    private static final Instant START = Instant.parse("2026-12-01T10:00:00.400Z");
    private static final Duration GRACE = Duration.ofMinutes(1);
    private static final QueueName METRICS = QueueName.of("metrics");

    private final MutableClock clock = MutableClock.at(START);
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final ScheduleFires fires = new InMemoryScheduleFires(transport);
    private final Schedule tick = Schedule.of("tick", "every 1s", "metrics", "{}");
    /** What the schedulers told their observer they enqueued. */
    private final List<Job> enqueued = new CopyOnWriteArrayList<>();
    private final JobObserver observer = new JobObserver() {
        @Override
        public void jobEnqueued(Job job) {
            enqueued.add(job);
        }
    };

    private SchedulerLoop scheduler(Schedule... schedules) {
        return new SchedulerLoop(fires, List.of(schedules), GRACE, clock, observer);
    }

    private List<Instant> firedTimes() {
        return transport.lease(METRICS, ConsumerName.of("reader"), 100_000, Duration.ZERO).deliveries().stream()
                .map(delivery -> ((Delivery.Leased) delivery).job())
                .map(job -> Instant.parse(job.headers().get(Schedule.FIRE_TIME_HEADER))).toList();
    }

    private static List<Instant> seconds(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(s -> Instant.parse("2026-12-01T10:00:00Z").plusSeconds(s))
                .toList();
    }

    @Test
    void aNewScheduleSkipsFireTimesBeforeItWasSeenThenFiresEachOnce() {
        SchedulerLoop scheduler = scheduler(tick);
        scheduler.runOnce();
        assertThat(firedTimes()).isEmpty();

        for (int second = 0; second < 5; second++) {
            clock.advance(Duration.ofSeconds(1));
            scheduler.runOnce();
            scheduler.runOnce(); // a second pass in the same second finds nothing new
        }

        assertThat(firedTimes()).isEqualTo(seconds(1, 5));
    }

    @Test
    void twoSchedulersNeverEnqueueAFireTimeTwice() {
        SchedulerLoop first = scheduler(tick);
        SchedulerLoop second = scheduler(tick);
        first.runOnce();

        for (int step = 0; step < 10; step++) {
            clock.advance(Duration.ofMillis(700));
            first.runOnce();
            second.runOnce();
        }

        assertThat(firedTimes()).isEqualTo(seconds(1, 7));
        assertThat(enqueued).as("each fire counted by the scheduler that enqueued it").extracting(Job::id)
                .containsExactlyElementsOf(seconds(1, 7).stream().map(tick::jobId).toList());
    }

    @Test
    void noFireTimeIsMissedWhenOneSchedulerStopsAndAnotherGoesOn() {
        SchedulerLoop leaving = scheduler(tick);
        SchedulerLoop staying = scheduler(tick);
        leaving.runOnce();
        clock.advance(Duration.ofSeconds(2));
        leaving.runOnce(); // fires :01 and :02, then stops for good

        clock.advance(Duration.ofMillis(2500)); // :04.9: the one left has not passed since
        staying.runOnce();
        clock.advance(Duration.ofSeconds(1));
        staying.runOnce();

        assertThat(firedTimes()).isEqualTo(seconds(1, 5));
    }

    @Nested
    class AfterEveryoneWasDown {
        @Test
        void latestRunsTheLastMissedFireTimeOnce() {
            Schedule hourly = Schedule.of("hourly", "0 * * * *", "metrics", "{}");
            scheduler(hourly).runOnce();

            clock.advance(Duration.ofHours(5)); // 15:00:00.4; every scheduler down since 10:00:00.4
            clock.advance(Duration.ofMinutes(30));
            scheduler(hourly).runOnce();

            assertThat(firedTimes()).containsExactly(Instant.parse("2026-12-01T15:00:00Z"));
        }

        @Test
        void skipFiresNothingMissedAndGoesOnFromNow() {
            Schedule hourly = Schedule.of("hourly", "0 * * * * catch-up=skip", "metrics", "{}");
            scheduler(hourly).runOnce();
            clock.advance(Duration.ofMinutes(330));

            scheduler(hourly).runOnce();
            assertThat(firedTimes()).isEmpty();
            assertThat(fires.state(hourly)).isEqualTo(
                    new ScheduleState(Optional.of(Instant.parse("2026-12-01T15:00:00Z")), Optional.empty()));

            clock.advance(Duration.ofMinutes(30));
            scheduler(hourly).runOnce();
            assertThat(firedTimes()).containsExactly(Instant.parse("2026-12-01T16:00:00Z"));
        }

        @Test
        void allWithinRunsEveryMissedFireTimeOfTheWindowInOrder() {
            Schedule hourly = Schedule.of("hourly", "0 * * * *", "metrics", "{}").withCatchUp(
                    CatchUp.allWithin(Duration.ofHours(3)));
            scheduler(hourly).runOnce();
            clock.advance(Duration.ofMinutes(330)); // 15:30:00.4

            scheduler(hourly).runOnce();

            assertThat(firedTimes()).containsExactly(Instant.parse("2026-12-01T13:00:00Z"),
                    Instant.parse("2026-12-01T14:00:00Z"), Instant.parse("2026-12-01T15:00:00Z"));
        }
    }

    @Test
    void aLongCatchUpGoesOnOverSeveralPasses() {
        Schedule everySecond = Schedule.of("burst", "every 1s catch-up=all-within:1h", "metrics", "{}");
        SchedulerLoop scheduler = scheduler(everySecond);
        scheduler.runOnce();
        clock.advance(Duration.ofMinutes(10));

        assertThat(scheduler.runOnce()).isEqualTo(new SchedulerLoop.Passed(SchedulerLoop.MAX_FIRES_PER_PASS, 0));
        assertThat(firedTimes()).hasSize(SchedulerLoop.MAX_FIRES_PER_PASS);
        for (int pass = 0; pass < 6; pass++) {
            scheduler.runOnce();
        }
        assertThat(firedTimes()).hasSize(600 - SchedulerLoop.MAX_FIRES_PER_PASS);
    }

    @Test
    void aFailingScheduleLeavesTheOthersToFire() {
        Schedule broken = Schedule.of("broken", "every 1s", "broken", "{}");
        ScheduleFires failingForOne = new ScheduleFires() {
            @Override
            public ScheduleState state(Schedule schedule) {
                if (schedule.equals(broken)) {
                    throw new TransportException("Redis is gone");
                }
                return fires.state(schedule);
            }

            @Override
            public boolean fire(Schedule schedule, Instant fireTime) {
                return fires.fire(schedule, fireTime);
            }

            @Override
            public void settle(Schedule schedule, Instant through) {
                fires.settle(schedule, through);
            }
        };
        SchedulerLoop scheduler = new SchedulerLoop(failingForOne, List.of(broken, tick), GRACE, clock, observer);
        scheduler.runOnce();
        clock.advance(Duration.ofSeconds(1));

        assertThat(scheduler.runOnce()).as("one fired, one failed").isEqualTo(new SchedulerLoop.Passed(1, 1));

        assertThat(firedTimes()).isEqualTo(seconds(1, 1));
    }

    @Test
    void theListShowsNextFireTimesAndTheLastFire() {
        SchedulerLoop scheduler = scheduler(tick);
        scheduler.runOnce();
        clock.advance(Duration.ofSeconds(2));
        scheduler.runOnce();

        List<ListSchedulesUseCase.ScheduleView> views = new ScheduleQueryService(fires, clock)
                .list(new ListSchedulesUseCase.Command(List.of(tick), 2));

        assertThat(views).singleElement().satisfies(view -> {
            assertThat(view.nextFires()).isEqualTo(seconds(3, 4));
            assertThat(view.state().lastFire()).contains(seconds(2, 2).get(0));
        });
        Job job = tick.jobAt(seconds(2, 2).get(0));
        assertThat(job.id().value()).isEqualTo("schedule:tick:2026-12-01T10:00:02Z");
    }
}
