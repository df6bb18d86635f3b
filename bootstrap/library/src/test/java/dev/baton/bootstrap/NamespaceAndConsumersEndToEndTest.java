package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.CONSUMER;
import static dev.baton.bootstrap.config.Setting.MODE;
import static dev.baton.bootstrap.config.Setting.NAMESPACE;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.config.Mode;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * BATON_NAMESPACE and BATON_CONSUMER through the wiring, on real Redis: jobs travel under the namespace's keys, and
 * two processes given one consumer name run as that name and the next number.
 */
class NamespaceAndConsumersEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final String namespace = TestEndpoints.unique("ns").replace('_', '-');
    private final String queue = TestEndpoints.unique("orders").replace('_', '-');
    private final ConsumerName consumer = ConsumerName.of(TestEndpoints.unique("shipper"));
    private final List<Baton> processes = new ArrayList<>();
    private final RedisClient redis = RedisClient.create(TestEndpoints.redisUri());

    @AfterEach
    void close() {
        processes.forEach(Baton::close);
        try (var connection = redis.connect()) {
            List<String> keys = connection.sync().keys(namespace + ":*");
            keys.forEach(key -> connection.sync().del(key));
        }
        redis.shutdown();
    }

    private Baton process() {
        Baton baton = Baton.builder().set(REDIS_URI, TestEndpoints.redisUri()).set(MODE, Mode.AT_LEAST_ONCE)
                .set(NAMESPACE, namespace).set(CONSUMER, consumer.value())
                .handler(queue, context -> Optional.empty()).shutdownHook(false).build();
        processes.add(baton);
        return baton;
    }

    @Test
    void jobsTravelUnderTheNamespacesKeys() {
        Baton baton = process();
        RunningWorker worker = baton.start(queue);

        baton.enqueue(QueueName.of(queue), JobId.of("o-1"), "{}");

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        try (var connection = redis.connect()) {
            RedisCommands<String, String> commands = connection.sync();
            assertThat(commands.exists(namespace + ":{" + queue + "}:stream")).isEqualTo(1);
            assertThat(commands.exists("baton:{" + queue + "}:stream")).isZero();
        }
    }

    @Test
    void twoProcessesGivenOneConsumerNameRunAsItAndTheNextNumber() {
        RunningWorker first = process().start(queue);
        RunningWorker second = process().start(queue);

        assertThat(first.consumer()).isEqualTo(consumer);
        assertThat(second.consumer()).isEqualTo(consumer.numbered(2));
    }
}
