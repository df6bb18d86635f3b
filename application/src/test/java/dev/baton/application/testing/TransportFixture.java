package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.DelayedJobActions;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.QueueOverview;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.ConsumerStats;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the four stream transport contracts share: the transport under test, a randomly named queue per test (so the
 * suites can run against a shared server), two consumers and the helpers. A test may use any port to set up and
 * check what the port under test did. Idle thresholds stay at most {@link #MIN_IDLE} and {@link #elapse} waits a
 * little longer, so a real server only needs real time to pass.
 */
public abstract class TransportFixture {

    /**
     * The idle threshold the suites use for reclaiming and consumer removal. Long enough that a loaded CI machine
     * never lets a freshly reclaimed entry go idle again between two calls of one test.
     */
    protected static final Duration MIN_IDLE = Duration.ofSeconds(1);
    protected static final Duration SHORT_BLOCK = Duration.ofMillis(50);
    protected static final Instant BASE = Instant.parse("2030-01-01T00:00:00Z");
    protected static final JobError ERROR = JobError.retryable("java.io.IOException", "connection reset");

    protected final ConsumerName alice = ConsumerName.of("alice");
    protected final ConsumerName bob = ConsumerName.of("bob");
    protected final QueueName queue = randomQueue();

    /** The transport under test (the same for the whole test). */
    protected abstract TestedTransport subject();

    protected static QueueName randomQueue() {
        return QueueName.of("contract-" + UUID.randomUUID().toString().substring(0, 13));
    }

    @BeforeEach
    void declareQueue() {
        subject().prepare(queue);
        leases().declare(queue);
    }

    @AfterEach
    void forgetQueue() {
        subject().forget(queue);
    }

    protected final JobPublisher publisher() {
        return subject().publisher();
    }

    protected final JobLeases leases() {
        return subject().leases();
    }

    protected final QueueMaintenance maintenance() {
        return subject().maintenance();
    }

    protected final QueueAdministration administration() {
        return subject().administration();
    }

    protected final DelayedJobActions delayedJobs() {
        return subject().delayedJobs();
    }

    protected final QueueOverview overview() {
        return subject().overview();
    }

    protected final void appendRaw(QueueName target, Map<String, String> fields) {
        subject().appendRaw(target, fields);
    }

    protected final void deleteFromStream(QueueName target, DeliveryId id) {
        subject().deleteFromStream(target, id);
    }

    protected final void elapse(Duration duration) {
        subject().elapse(duration);
    }

    protected final Job job(String id) {
        return Job.create(JobId.of(id), queue, "{\"id\":\"" + id + "\"}", Instant.ofEpochMilli(1_900_000_000_123L))
                .withHeaders(subject().jobHeaders());
    }

    protected final void publish(String... ids) {
        for (String id : ids) {
            publisher().publish(job(id));
        }
    }

    protected final long ownedBy(ConsumerName consumer) {
        return administration().stats(queue).consumers().stream()
                .filter(stats -> stats.name().equals(consumer.value()))
                .mapToLong(ConsumerStats::pending)
                .sum();
    }

    protected static Delivery.Leased leased(Delivery delivery) {
        assertThat(delivery).isInstanceOf(Delivery.Leased.class);
        return (Delivery.Leased) delivery;
    }

    protected static <T> T single(List<T> items) {
        assertThat(items).hasSize(1);
        return items.get(0);
    }

    protected static List<String> jobIds(List<Delivery> deliveries) {
        return deliveries.stream().map(d -> leased(d).job().id().value()).toList();
    }

    protected static List<DeliveryId> ids(List<Delivery> deliveries) {
        return deliveries.stream().map(Delivery::id).toList();
    }
}
