package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The slots: one per running job, those opened for deliveries leased ahead, and a suspect's turn to run alone. */
class InFlightTest {
    private final InFlight inFlight = new InFlight(4);

    @Test
    void slotsOpenedAheadAreLeasedBesideTheRunningJobsSlots() throws InterruptedException {
        inFlight.leaseAhead(3);

        assertThat(inFlight.takeFreeSlots()).isEqualTo(7);
    }

    @Test
    void aSlotClosedWhileInUseClosesWhenItIsGivenBack() throws InterruptedException {
        inFlight.leaseAhead(3);
        assertThat(inFlight.takeFreeSlots()).isEqualTo(7);

        inFlight.leaseAhead(1);
        inFlight.freeSlots(7);

        assertThat(inFlight.takeFreeSlots()).isEqualTo(5);
    }

    @Test
    void aSuspectWaitsForSlotsLeasedAheadTooAndFreezesThemUntilItRan() throws InterruptedException {
        inFlight.leaseAhead(2);
        assertThat(inFlight.takeFreeSlots()).isEqualTo(6); // the suspect's own slot and five others
        CompletableFuture<Void> isolated = isolating();

        inFlight.freeSlots(4);
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !isolated.isDone());
        inFlight.leaseAhead(0); // no change while the suspect isolates itself: it waits for five
        inFlight.freeSlots(1);
        isolated.join();
        inFlight.freeOtherSlots();
        inFlight.freeSlots(1); // the suspect's own, after it ran

        assertThat(inFlight.takeFreeSlots()).isEqualTo(6);
        inFlight.freeSlots(6);
        inFlight.leaseAhead(0);
        assertThat(inFlight.takeFreeSlots()).as("adjusted again once the suspect ran").isEqualTo(4);
    }

    @Test
    void theFetcherTakesNoSlotPastASuspectThatWaitsForThem() throws InterruptedException {
        assertThat(inFlight.takeFreeSlots()).isEqualTo(4);
        inFlight.freeSlots(2); // the suspect's own slot and a running job's stay taken
        CompletableFuture<Void> isolated = isolating(); // three: two free, and the running job's
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !isolated.isDone());

        CompletableFuture<Integer> fetched = fetching();
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !fetched.isDone());
        inFlight.freeSlots(1); // the running job ends

        isolated.join();
        assertThat(fetched).as("the fetcher waits until the suspect ran").isNotDone();
        inFlight.freeOtherSlots();
        assertThat(fetched.join()).isEqualTo(3);
    }

    @Test
    void aFetcherThatTookASuspectInWaitsUntilTheSuspectTakesItsSlots() throws InterruptedException {
        assertThat(inFlight.takeFreeSlots()).isEqualTo(4);
        HeldDelivery suspect = inFlight.hold(Deliveries.suspect(job("s"), 0)).orElseThrow();
        inFlight.freeSlots(3); // the fetcher keeps the suspect's slot only
        CompletableFuture<Void> fetcherWaits = waitingForTheSuspect(Duration.ofMinutes(1));
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !fetcherWaits.isDone());

        inFlight.takeOtherSlots(); // all three free: the suspect takes them at once

        await().atMost(Duration.ofSeconds(5)).until(fetcherWaits::isDone);
        CompletableFuture<Integer> fetched = fetching();
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !fetched.isDone());
        inFlight.freeOtherSlots();
        assertThat(fetched.join()).as("the slots, once the suspect ran").isEqualTo(3);
        inFlight.end(Ending.LEFT_PENDING.ofAll(List.of(suspect)));
    }

    @Test
    void aFetcherStopsWaitingForASuspectThatIsHeldNoMore() {
        HeldDelivery suspect = inFlight.hold(Deliveries.suspect(job("s"), 0)).orElseThrow();
        CompletableFuture<Void> fetcherWaits = waitingForTheSuspect(Duration.ofMinutes(1));
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !fetcherWaits.isDone());

        inFlight.forget(List.of(suspect)); // acknowledged without running: it had completed before

        await().atMost(Duration.ofSeconds(5)).until(fetcherWaits::isDone);
    }

    @Test
    void aFetcherWaitsForASuspectAtMostTheGivenTime() throws InterruptedException {
        inFlight.hold(Deliveries.suspect(job("s"), 0)).orElseThrow();

        inFlight.awaitSuspectIsolating(Duration.ofMillis(1)); // returns: the suspect has not moved

        assertThat(inFlight.holdsSuspect()).isTrue();
    }

    /** The fetcher taking its free slots, on a thread of its own. */
    private CompletableFuture<Integer> fetching() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return inFlight.takeFreeSlots();
            } catch (InterruptedException e) {
                throw new CompletionException(e);
            }
        });
    }

    /** A suspect taking every other slot, on a thread of its own. */
    private CompletableFuture<Void> isolating() {
        return CompletableFuture.runAsync(() -> {
            try {
                inFlight.takeOtherSlots();
            } catch (InterruptedException e) {
                throw new CompletionException(e);
            }
        });
    }

    private CompletableFuture<Void> waitingForTheSuspect(Duration max) {
        return CompletableFuture.runAsync(() -> {
            try {
                inFlight.awaitSuspectIsolating(max);
            } catch (InterruptedException e) {
                throw new CompletionException(e);
            }
        });
    }

    private static Job job(String id) {
        return Job.create(JobId.of(id), Deliveries.QUEUE, "{}", Deliveries.NOW);
    }
}
