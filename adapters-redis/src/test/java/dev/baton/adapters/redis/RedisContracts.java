package dev.baton.adapters.redis;

import static org.awaitility.Awaitility.await;

import dev.baton.application.port.out.DelayedJobActions;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.QueueOverview;
import dev.baton.application.port.out.ScheduleFires;
import dev.baton.application.testing.TransportContracts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The transport contracts on a {@link RedisAdapter}: its four ports, and the server's own idle times. */
abstract class RedisContracts extends TransportContracts {

    abstract RedisAdapter adapter();

    @Override
    public JobPublisher publisher() {
        return adapter().publisher();
    }

    @Override
    public JobLeases leases() {
        return adapter().leases();
    }

    @Override
    public QueueMaintenance maintenance() {
        return adapter().maintenance();
    }

    @Override
    public QueueAdministration administration() {
        return adapter().administration();
    }

    @Override
    public DelayedJobActions delayedJobs() {
        return adapter().delayedJobs();
    }

    @Override
    public QueueOverview overview() {
        return adapter().overview();
    }

    @Override
    public ScheduleFires scheduleFires() {
        return adapter().scheduleFires();
    }

    /** Idle times are the server's: real time has to pass. */
    @Override
    public void elapse(Duration duration) {
        await().pollDelay(duration).atMost(duration.plusSeconds(5)).until(() -> true);
    }

    /** An entry's fields as {@code XADD} takes them: name, value, name, value, ... */
    static byte[][] fieldsAndValues(Map<String, String> fields) {
        List<byte[]> values = new ArrayList<>();
        fields.forEach((name, value) -> {
            values.add(RawRedis.bytes(name));
            values.add(RawRedis.bytes(value));
        });
        return values.toArray(byte[][]::new);
    }
}
