package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.Delivery;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DispatcherTest {
    private final InFlight inFlight = new InFlight(5);
    private final List<List<HeldDelivery>> tasks = new ArrayList<>();

    @Test
    void deliveriesAreHandedOverInBatchesOfAtMostTheBatchCommit() throws InterruptedException {
        Dispatcher dispatcher = new Dispatcher(inFlight, 2, Runnable::run, tasks::add);
        List<Delivery> leased = lease(5);

        dispatcher.dispatch(leased);

        assertThat(tasks).extracting(List::size).containsExactly(2, 2, 1);
        assertThat(inFlight.size()).isEqualTo(5);
    }

    @Test
    void aDeliveryHeldAlreadyIsNotDispatchedTwiceAndGivesItsSlotBack() throws InterruptedException {
        Dispatcher dispatcher = new Dispatcher(inFlight, 1, Runnable::run, tasks::add);
        List<Delivery> leased = lease(1);
        dispatcher.dispatch(leased);
        inFlight.takeSlot();

        dispatcher.dispatch(leased);

        assertThat(tasks).hasSize(1);
        assertThat(inFlight.takeFreeSlots()).as("every slot but the running job's").isEqualTo(4);
    }

    @Test
    void whatTheStoppedJobThreadsRefuseIsReleased() throws InterruptedException {
        Dispatcher dispatcher = new Dispatcher(inFlight, 1, task -> {
            throw new RejectedExecutionException("stopped");
        }, tasks::add);

        dispatcher.dispatch(lease(2));

        assertThat(inFlight.size()).isZero();
        assertThat(inFlight.takeFreeSlots()).isEqualTo(5);
    }

    private List<Delivery> lease(int count) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            inFlight.takeSlot();
        }
        return IntStream.range(0, count).<Delivery>mapToObj(i -> Deliveries.leased("job-" + i)).toList();
    }
}
