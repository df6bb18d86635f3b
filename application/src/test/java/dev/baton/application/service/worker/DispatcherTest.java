package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.Lease;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class DispatcherTest {
    private final InFlight inFlight = new InFlight(12);
    private final List<List<HeldDelivery>> tasks = new ArrayList<>();
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(MutableClock.at(Deliveries.NOW));
    private final CancelMarks marks = new CancelMarks(transport);

    @Test
    void deliveriesAreHandedOverInBatchesOfAtMostTheBatchCommit() throws InterruptedException {
        Dispatcher dispatcher = new Dispatcher(inFlight, marks, 2, 1, Runnable::run, tasks::add, LeaseAhead.none());
        List<Delivery> leased = lease(5);

        dispatcher.dispatch(leased);

        assertThat(tasks).extracting(List::size).containsExactly(2, 2, 1);
        assertThat(inFlight.size()).isEqualTo(5);
    }

    @Test
    void aDeliveryHeldAlreadyIsNotDispatchedTwiceAndGivesItsSlotBack() throws InterruptedException {
        Dispatcher dispatcher = new Dispatcher(inFlight, marks, 1, 1, Runnable::run, tasks::add, LeaseAhead.none());
        List<Delivery> leased = lease(1);
        dispatcher.dispatch(leased);
        inFlight.takeSlot();

        dispatcher.dispatch(leased);

        assertThat(tasks).hasSize(1);
        assertThat(inFlight.takeFreeSlots()).as("every slot but the running job's").isEqualTo(11);
    }

    @Nested
    class WhenTheStoppedJobThreadsRefuse {
        @Test
        void whatTheyRefuseIsReleased() throws InterruptedException {
            Dispatcher dispatcher = new Dispatcher(inFlight, marks, 1, 1, task -> {
                throw new RejectedExecutionException("stopped");
            }, tasks::add, LeaseAhead.none());

            dispatcher.dispatch(lease(2));

            assertThat(inFlight.size()).isZero();
            assertThat(inFlight.takeFreeSlots()).isEqualTo(12);
        }

        @Test
        void whatIsReadyWhenTheyRefuseADrainerIsReleased() throws InterruptedException {
            Dispatcher dispatcher = new Dispatcher(inFlight, marks, 3, 2, task -> {
                throw new RejectedExecutionException("stopped");
            }, tasks::add, LeaseAhead.none());

            dispatcher.dispatch(lease(5));

            assertThat(tasks).isEmpty();
            assertThat(inFlight.size()).isZero();
            assertThat(inFlight.takeFreeSlots()).isEqualTo(12);
        }

        @Test
        void whatIsReadyWhenTheyRefuseAnotherDrainerIsRunByTheOneRunning() throws InterruptedException {
            List<Runnable> accepted = new ArrayList<>();
            Dispatcher dispatcher = new Dispatcher(inFlight, marks, 1, 12, task -> {
                if (!accepted.isEmpty()) {
                    throw new RejectedExecutionException("stopping: the first drainer was accepted before");
                }
                accepted.add(task);
            }, tasks::add, LeaseAhead.none());
            dispatcher.dispatch(lease(3));

            accepted.get(0).run();

            assertThat(tasks).as("all three run in the grace period, none left for a redelivery").hasSize(3);
            assertThat(inFlight.size()).isEqualTo(3);
        }
    }

    @Test
    void aBatchIsWhatIsReadyAndNeverWaitsToFill() throws InterruptedException {
        Dispatcher dispatcher = new Dispatcher(inFlight, marks, 50, 4, Runnable::run, tasks::add, LeaseAhead.none());

        dispatcher.dispatch(lease(1));
        dispatcher.dispatch(lease(3));

        assertThat(tasks).extracting(List::size).containsExactly(1, 3);
    }

    @Test
    void batchesCommitSideBySideUpToTheTransactionsAtOnce() throws InterruptedException {
        AtomicInteger started = new AtomicInteger();
        ExecutorService threads = Executors.newCachedThreadPool();
        CountDownLatch commit = new CountDownLatch(1);
        List<List<HeldDelivery>> running = new CopyOnWriteArrayList<>();
        Dispatcher dispatcher = new Dispatcher(inFlight, marks, 4, 2, task -> {
            started.incrementAndGet();
            threads.execute(task);
        }, batch -> {
            running.add(batch);
            awaitQuietly(commit);
        }, LeaseAhead.none());
        try {
            dispatcher.dispatch(lease(12));

            await().atMost(Duration.ofSeconds(10)).until(() -> running.size() == 2);
            assertThat(started).as("the second drainer started no third: two transactions at once").hasValue(2);
            commit.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> running.size() == 3);
            assertThat(running).extracting(List::size).containsOnly(4);
        } finally {
            commit.countDown();
            threads.shutdown();
        }
    }

    @Test
    void aDispatchStartsOneDrainerAndOneLeavingMoreReadyStartsTheNext() throws InterruptedException {
        List<Runnable> drainers = new ArrayList<>();
        Dispatcher dispatcher = new Dispatcher(inFlight, marks, 4, 3, drainers::add, tasks::add, LeaseAhead.none());

        dispatcher.dispatch(lease(5));

        assertThat(drainers).hasSize(1);
        drainers.remove(0).run();
        assertThat(tasks).as("the first drainer ran all: the next had not begun").extracting(List::size)
                .containsExactly(4, 1);
        assertThat(drainers).as("started when the first batch left one ready, once").hasSize(1);
    }

    @Test
    void shortJobsCommittedOneByOneAreRunByTheDrainersAwake() throws InterruptedException {
        List<Runnable> drainers = new ArrayList<>();
        Dispatcher dispatcher = new Dispatcher(inFlight, marks, 1, 12, drainers::add, tasks::add, LeaseAhead.none());

        dispatcher.dispatch(lease(6));
        drainers.remove(0).run();

        assertThat(tasks).extracting(List::size).containsExactly(1, 1, 1, 1, 1, 1);
        assertThat(drainers).as("one more thread woken for six jobs, not six").hasSize(1);
        drainers.remove(0).run();
        dispatcher.dispatch(lease(1));
        assertThat(drainers).as("the next dispatch starts one, the last having begun").hasSize(1);
    }

    @Test
    void aDrainerThatEndedIsStartedAgainByTheNextDispatch() throws InterruptedException {
        List<Runnable> drainers = new ArrayList<>();
        Dispatcher dispatcher = new Dispatcher(inFlight, marks, 4, 1, drainers::add, tasks::add, LeaseAhead.none());
        dispatcher.dispatch(lease(2));
        drainers.remove(0).run();

        dispatcher.dispatch(lease(2));

        assertThat(drainers).hasSize(1);
        drainers.remove(0).run();
        assertThat(tasks).extracting(List::size).containsExactly(2, 2);
    }

    @Test
    void aSuspectRunsInATaskOfItsOwn() throws InterruptedException {
        Dispatcher dispatcher = new Dispatcher(inFlight, marks, 4, 2, Runnable::run, tasks::add, LeaseAhead.none());
        inFlight.takeSlot();
        inFlight.takeSlot();

        dispatcher.dispatch(List.of(Deliveries.leased("job-a"),
                Deliveries.suspect(Job.create(JobId.of("job-suspect"), Deliveries.QUEUE, "{}", Deliveries.NOW), 0),
                Deliveries.leased("job-b")));

        assertThat(tasks).extracting(batch -> batch.stream()
                .map(held -> ((Delivery.Leased) held.delivery()).job().id().value()).toList())
                .contains(List.of("job-suspect"));
    }

    @Test
    void cancelsAreReadOnceForWhatCameTogetherIfThatFailsNoneRuns() throws InterruptedException {
        Dispatcher dispatcher = new Dispatcher(inFlight, marks, 1, 1, Runnable::run, tasks::add, LeaseAhead.none());
        transport.failNextCancelReads(1);

        dispatcher.dispatch(lease(3));

        assertThat(tasks).as("one failed read for the three: all left pending").isEmpty();
        assertThat(inFlight.size()).isZero();
        dispatcher.dispatch(lease(3));
        assertThat(tasks).hasSize(3);
    }

    @Test
    void whatALeaseBroughtIsMarkedAsItToldWithoutReadingTheCancels() throws InterruptedException {
        Dispatcher dispatcher = new Dispatcher(inFlight, marks, 1, 1, Runnable::run, tasks::add, LeaseAhead.none());
        transport.failNextCancelReads(1);

        dispatcher.dispatch(new Lease(lease(3), Set.of(JobId.of("job-1"))));

        assertThat(tasks).as("no read, so none failed: all three run").hasSize(3);
        assertThat(tasks).extracting(batch -> batch.get(0).isCancelled()).containsExactly(false, true, false);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private List<Delivery> lease(int count) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            inFlight.takeSlot();
        }
        return IntStream.range(0, count).<Delivery>mapToObj(i -> Deliveries.leased("job-" + i)).toList();
    }
}
