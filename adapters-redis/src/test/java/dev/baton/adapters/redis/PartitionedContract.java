package dev.baton.adapters.redis;

import static org.awaitility.Awaitility.await;

import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.StreamTransport;
import dev.baton.application.testing.StreamTransportContract;
import dev.baton.domain.Job;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;

/**
 * The port contract on a queue of {@link #PARTITIONS} partitions. The contract's orderings (oldest first, death
 * order) are promises within one partition, so every job of a test carries the partition key {@code j-0}: it lands
 * in the partition that the job id {@code j-0} routes to, the one job whose headers the suite replaces. The other
 * partitions stay empty and every operation still goes over all of them: ids carry their partition, stats and
 * consumers are summed, blocking leases wait on every partition.
 */
abstract class PartitionedContract extends StreamTransportContract {
    static final int PARTITIONS = 4;
    private static final String KEY = "j-0";

    PartitionedContract() {
        adapter().declarePartitions(queue, PARTITIONS);
    }

    abstract RedisAdapter adapter();

    abstract RawKeys raw();

    @AfterEach
    void forgetQueue() {
        raw().forget(queue, PARTITIONS);
    }

    @Override
    protected StreamTransport transport() {
        return adapter().transport();
    }

    @Override
    protected Job job(String id) {
        return super.job(id).withHeaders(Map.of(QueueLayout.PARTITION_KEY, KEY));
    }

    @Override
    protected void appendRaw(QueueName queue, Map<String, String> fields) {
        List<byte[]> values = new ArrayList<>();
        fields.forEach((name, value) -> {
            values.add(RawRedis.bytes(name));
            values.add(RawRedis.bytes(value));
        });
        QueueKeys keys = RawKeys.keys(queue, QueueLayout.partitionOf(KEY, PARTITIONS), PARTITIONS);
        raw().commands().xadd(keys.stream(), (Object[]) values.toArray(byte[][]::new));
    }

    @Override
    protected void deleteFromStream(QueueName queue, DeliveryId id) {
        QueueLayout.Located located = new QueueLayout(queue, "-workers", PARTITIONS).locate(id.value()).orElseThrow();
        raw().commands().xdel(located.keys().stream(), located.entryId());
    }

    /** Idle times are the server's: real time has to pass. */
    @Override
    protected void elapse(Duration duration) {
        await().pollDelay(duration).atMost(duration.plusSeconds(5)).until(() -> true);
    }
}
