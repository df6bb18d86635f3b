package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.adapters.redis.testing.TestCluster;
import dev.baton.adapters.redis.testing.ThrowawayRedis;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.TransportException;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * An adapter opened while Redis is down ({@code requireServerAtOpen} false), each test on private servers that it
 * starts after the adapter opened: every call fails at once saying why, and the same adapter works once Redis answers.
 */
class RedisDownAtStartTest {
    /** Far longer than a call may take while Redis is down: failing fast must not mean waiting for it. */
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration FAST = Duration.ofSeconds(2);
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private final QueueName queue = QueueName.of("down-at-start");
    private final ConsumerName alice = ConsumerName.of("alice");

    private static RedisAdapter openWithoutServer(RedisAdapter.Config config) {
        return RedisAdapter.open(config.withRequireServerAtOpen(false), Clock.systemUTC());
    }

    private static RedisAdapter.Config config(String uri) {
        return new RedisAdapter.Config(uri, "-workers", PayloadLimit.DEFAULT, COMMAND_TIMEOUT, false);
    }

    private Job job(String id) {
        return Job.create(JobId.of(id), queue, "{}", NOW);
    }

    private List<String> leaseAll(RedisAdapter adapter) {
        return adapter.leases().lease(queue, alice, 10, Duration.ofMillis(100)).deliveries().stream()
                .map(delivery -> ((Delivery.Leased) delivery).job().id().value()).toList();
    }

    @Test
    void callsFailAtOnceUntilRedisAnswersThenTheSameAdapterWorks() {
        try (ThrowawayRedis server = ThrowawayRedis.notStarted()) {
            long opening = System.nanoTime();
            try (RedisAdapter adapter = openWithoutServer(config(server.uri()))) {
                assertThat(Duration.ofNanos(System.nanoTime() - opening)).isLessThan(FAST);

                long calling = System.nanoTime();
                assertThatThrownBy(() -> adapter.publisher().publish(job("early")))
                        .isInstanceOf(TransportException.class)
                        .hasMessageContaining("Redis at " + server.uri() + " is unreachable since ")
                        .hasMessageContaining("Connection refused");
                assertThat(Duration.ofNanos(System.nanoTime() - calling)).isLessThan(FAST);
                assertThat(adapter.isReachable()).isFalse();
                assertThat(adapter.whyUnreachable()).hasValueSatisfying(reason -> assertThat(reason)
                        .contains("Redis at " + server.uri() + " is unreachable since ")
                        .contains("Connection refused"));

                server.startNow();

                await().atMost(Duration.ofSeconds(20)).until(adapter::isReachable);
                assertThat(adapter.whyUnreachable()).isEmpty();
                adapter.leases().declare(queue);
                adapter.publisher().publish(job("late"));
                adapter.publisher().publish(job("scheduled").notBefore(NOW));
                assertThat(adapter.maintenance().promoteDue(queue, NOW, 10)).as("its scripts are loaded").isEqualTo(1);
                assertThat(leaseAll(adapter)).containsExactly("late", "scheduled");
            }
        }
    }

    @Test
    void aPasswordNeverShowsWhileRedisIsDown() {
        try (ThrowawayRedis server = ThrowawayRedis.notStarted();
             RedisAdapter adapter = openWithoutServer(config("redis://:s3cret-pw@127.0.0.1:" + server.port()))) {
            assertThatThrownBy(() -> adapter.administration().stats(queue))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("redis://:****@127.0.0.1:" + server.port())
                    .hasMessageNotContaining("s3cret-pw");
            assertThat(adapter.whyUnreachable()).hasValueSatisfying(reason -> assertThat(reason)
                    .contains("redis://:****@").doesNotContain("s3cret-pw"));
        }
    }

    @Test
    void aServerThatRefusesThePasswordKeepsItDownWithItsAnswer() {
        try (ThrowawayRedis server = ThrowawayRedis.start("--requirepass", "right-pw");
             RedisAdapter adapter = openWithoutServer(config("redis://:wrong-pw@127.0.0.1:" + server.port()))) {
            assertThat(adapter.whyUnreachable()).hasValueSatisfying(reason -> assertThat(reason)
                    .contains("WRONGPASS").doesNotContain("wrong-pw"));
            assertThatThrownBy(() -> adapter.publisher().publish(job("refused")))
                    .isInstanceOf(TransportException.class).hasMessageContaining("WRONGPASS");
        }
    }

    @Test
    void aClosedAdapterStopsConnecting() {
        try (ThrowawayRedis server = ThrowawayRedis.notStarted()) {
            RedisAdapter adapter = openWithoutServer(config(server.uri()));
            assertThat(connectingThreads()).isPositive();

            adapter.close();

            await().atMost(Duration.ofSeconds(10)).until(() -> connectingThreads() == 0);
        }
    }

    private static long connectingThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals("baton-redis-connect") && thread.isAlive()).count();
    }

    @Test
    void aClusterFormedAfterOpenIsUsedOnceItsMastersServeEverySlot() {
        List<Integer> ports = TestCluster.freePorts();
        String nodes = ports.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
        try (RedisAdapter adapter = openWithoutServer(config("redis://127.0.0.1:" + ports.get(0))
                .withClusterNodes(nodes))) {
            assertThatThrownBy(() -> adapter.leases().declare(queue))
                    .isInstanceOf(TransportException.class).hasMessageContaining("is unreachable since");

            try (TestCluster cluster = TestCluster.start(ports)) {
                await().atMost(Duration.ofSeconds(30)).until(adapter::isReachable);
                adapter.declarePartitions(queue, 3);
                adapter.leases().declare(queue);
                adapter.publisher().publishAll(List.of(job("a"), job("b"), job("c")));

                Set<String> leased = new HashSet<>();
                await().atMost(Duration.ofSeconds(10)).until(() -> {
                    leased.addAll(leaseAll(adapter));
                    return leased.size() == 3;
                });
                assertThat(leased).containsExactlyInAnyOrder("a", "b", "c");
            }
        }
    }
}
