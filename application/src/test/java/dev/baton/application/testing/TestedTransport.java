package dev.baton.application.testing;

import dev.baton.application.port.out.DelayedJobActions;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.QueueOverview;
import dev.baton.application.port.out.ScheduleFires;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.Map;

/**
 * A stream transport as the contract suites see it: its four ports and the schedules' watermarks (usually one object
 * behind them all) and the hooks that reach past them, to set up what no port can (a foreign entry, a deleted one,
 * time passing). An adapter test implements this once and runs every suite with {@link TransportContracts}.
 */
public interface TestedTransport {

    /** Build the transport under test with this payload limit: the malformed-entry test relies on it. */
    PayloadLimit PAYLOAD_LIMIT = new PayloadLimit(4096);

    JobPublisher publisher();

    JobLeases leases();

    QueueMaintenance maintenance();

    QueueAdministration administration();

    DelayedJobActions delayedJobs();

    QueueOverview overview();

    ScheduleFires scheduleFires();

    /** Appends an entry with exactly these fields to the queue's stream, bypassing the job mapping. */
    void appendRaw(QueueName queue, Map<String, String> fields);

    /** Deletes an entry's data from the stream but leaves it pending, like {@code XDEL}. */
    void deleteFromStream(QueueName queue, DeliveryId id);

    /**
     * Puts something no queue can be read from where the queue's stream belongs, as a stray write by hand or by
     * another program does (in Redis: a string, {@code SET <namespace>:{queue}:stream x}).
     */
    void damageStream(QueueName queue);

    /** Lets at least {@code duration} pass for the transport's idle times (a fake clock moves; a server waits). */
    void elapse(Duration duration);

    /**
     * Headers every job of the suites carries: a partitioned transport routes them all to one partition this way,
     * because the suites' orderings are promises within one partition.
     */
    default Map<String, String> jobHeaders() {
        return Map.of();
    }

    /** Runs before a test declares {@code queue}, e.g. to give it partitions. */
    default void prepare(QueueName queue) {
    }

    /** Runs after each test: a transport on a shared server deletes what the test left of {@code queue}. */
    default void forget(QueueName queue) {
    }
}
