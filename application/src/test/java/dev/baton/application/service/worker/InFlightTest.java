package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The slots: one per running job, and those opened for deliveries leased ahead. */
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
    void aSuspectWaitsForTheSlotsLeasedAheadTooAndFreezesThemUntilItRan() throws InterruptedException {
        inFlight.leaseAhead(2);
        assertThat(inFlight.takeFreeSlots()).isEqualTo(6); // the suspect's own slot and five others
        CompletableFuture<Void> isolated = CompletableFuture.runAsync(() -> {
            try {
                inFlight.takeOtherSlots();
            } catch (InterruptedException e) {
                throw new CompletionException(e);
            }
        });

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
}
