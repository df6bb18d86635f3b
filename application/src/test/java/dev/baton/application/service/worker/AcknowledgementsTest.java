package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.out.AcknowledgedLease;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.Lease;
import dev.baton.application.port.out.TransportException;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The acknowledgement sender, and the acknowledgements that go in front of the fetcher's lease instead. */
class AcknowledgementsTest {
    private static final QueueName ORDERS = QueueName.of("orders");
    private static final QueueName MAILS = QueueName.of("mails");
    private static final ConsumerName ALICE = ConsumerName.of("alice");
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(MutableClock.at(Deliveries.NOW));
    private final List<Done> acknowledged = new CopyOnWriteArrayList<>();
    private final List<Done> notAcknowledged = new CopyOnWriteArrayList<>();
    private final Acknowledgements.Listener<Done> listener = new Acknowledgements.Listener<>() {
        @Override
        public void acknowledged(List<Done> finished) {
            acknowledged.addAll(finished);
        }

        @Override
        public void notAcknowledged(List<Done> finished, RuntimeException failure) {
            notAcknowledged.addAll(finished);
        }
    };
    /** The sender starts only when a test opens the gate: until then only the fetcher's calls acknowledge. */
    private final CountDownLatch gate = new CountDownLatch(1);
    private final ThreadFactory gatedThreads = task -> new Thread(() -> {
        try {
            gate.await();
            task.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }, "acknowledgement-sender");
    private final Acknowledgements<Done> acknowledgements = new Acknowledgements<>(transport, listener, gatedThreads);

    private record Done(QueueName queue, DeliveryId id) implements Acknowledgements.Finished {
    }

    @AfterEach
    void close() throws InterruptedException {
        gate.countDown();
        acknowledgements.close(WAIT);
    }

    @Test
    void heldOnesGoInFrontOfTheirQueuesLeaseAndTheOthersOnTheirOwn() {
        List<Done> orders = leased(ORDERS, "o-1", "o-2");
        List<Done> mails = leased(MAILS, "m-1");
        transport.publish(job(ORDERS, "o-3"));
        List<DeliveryId> inFront = new CopyOnWriteArrayList<>();

        acknowledgements.holdForLease();
        acknowledgements.acknowledge(orders);
        acknowledgements.acknowledge(mails);
        Lease lease = acknowledgements.leaseAfter(ORDERS, ids -> {
            inFront.addAll(ids);
            return transport.acknowledgeAndLease(ORDERS, ids, ALICE, 10);
        });

        assertThat(inFront).containsExactlyElementsOf(orders.stream().map(Done::id).toList());
        assertThat(Delivery.jobIdsOf(lease.deliveries())).containsExactly(JobId.of("o-3"));
        assertThat(acknowledged).containsExactlyInAnyOrder(orders.get(0), orders.get(1), mails.get(0));
        assertThat(transport.stats(MAILS).pending()).isZero();
        assertThat(transport.stats(ORDERS).pending()).as("only the new lease's entry").isEqualTo(1);
    }

    @Test
    void aFailedLeaseLeavesTheAcknowledgementsInFrontOfItUnconfirmed() {
        List<Done> orders = leased(ORDERS, "o-1");

        acknowledgements.holdForLease();
        acknowledgements.acknowledge(orders);
        assertThatThrownBy(() -> acknowledgements.leaseAfter(ORDERS, ids -> {
            throw new TransportException("server unreachable");
        })).isInstanceOf(TransportException.class);

        assertThat(notAcknowledged).containsExactlyElementsOf(orders);
        assertThat(acknowledged).isEmpty();
    }

    @Test
    void aFailedOneInFrontOfALeaseIsToldAndTheLeaseStillCounts() {
        List<Done> orders = leased(ORDERS, "o-1");
        transport.publish(job(ORDERS, "o-2"));

        acknowledgements.holdForLease();
        acknowledgements.acknowledge(orders);
        Lease lease = acknowledgements.leaseAfter(ORDERS, ids -> new AcknowledgedLease(
                transport.lease(ORDERS, ALICE, 10, Duration.ZERO),
                Optional.of(new TransportException("acknowledge failed"))));

        assertThat(Delivery.jobIdsOf(lease.deliveries())).containsExactly(JobId.of("o-2"));
        assertThat(notAcknowledged).containsExactlyElementsOf(orders);
    }

    @Test
    void whenTheFetcherIsAboutToWaitTheSenderSendsWhatWasHeldForIt() {
        gate.countDown();
        List<Done> orders = leased(ORDERS, "o-1", "o-2");

        acknowledgements.holdForLease();
        acknowledgements.acknowledge(orders);
        acknowledgements.sendDirectly();

        await().atMost(WAIT).until(() -> acknowledged.size() == 2);
        assertThat(transport.stats(ORDERS).pending()).isZero();
    }

    @Test
    void withoutAHoldTheSenderSendsAtOnce() {
        gate.countDown();
        List<Done> orders = leased(ORDERS, "o-1");

        acknowledgements.acknowledge(orders);

        await().atMost(WAIT).until(() -> acknowledged.size() == 1);
        assertThat(transport.stats(ORDERS).pending()).isZero();
    }

    @Test
    void closingSendsWhatWasHeldForALeaseThatNeverCame() throws InterruptedException {
        List<Done> orders = leased(ORDERS, "o-1");

        acknowledgements.holdForLease();
        acknowledgements.acknowledge(orders);
        gate.countDown();
        acknowledgements.close(WAIT);

        assertThat(acknowledged).containsExactlyElementsOf(orders);
        assertThat(transport.stats(ORDERS).pending()).isZero();
    }

    private List<Done> leased(QueueName queue, String... jobIds) {
        for (String id : jobIds) {
            transport.publish(job(queue, id));
        }
        return transport.lease(queue, ALICE, jobIds.length, Duration.ZERO).deliveries().stream()
                .map(delivery -> new Done(queue, delivery.id()))
                .toList();
    }

    private static Job job(QueueName queue, String id) {
        return Job.create(JobId.of(id), queue, "{}", Deliveries.NOW);
    }
}
