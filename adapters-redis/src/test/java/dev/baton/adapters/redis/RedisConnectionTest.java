package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.adapters.redis.testing.ThrowawayRedis;
import dev.baton.application.port.out.AcknowledgedLease;
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
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Connection behaviour, each test on a private Redis server that it may restart, stop or lock with a password. */
class RedisConnectionTest {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private final QueueName queue = QueueName.of("orders");
    private final ConsumerName alice = ConsumerName.of("alice");
    private ExecutorService executor;

    @AfterEach
    void stopExecutor() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    private static RedisAdapter open(String uri, Duration commandTimeout) {
        return RedisAdapter.open(new RedisAdapter.Config(uri, "-workers", PayloadLimit.DEFAULT, commandTimeout, false),
                Clock.systemUTC());
    }

    private Job job(String id) {
        return Job.create(JobId.of(id), queue, "{}", NOW);
    }

    @Test
    void consumingResumesAfterARedisRestartThatLostAllData() throws Exception {
        try (ThrowawayRedis server = ThrowawayRedis.start();
             RedisAdapter adapter = open(server.uri(), Duration.ofSeconds(2))) {
            adapter.leases().declare(queue);
            Set<String> received = ConcurrentHashMap.newKeySet();
            AtomicInteger failures = new AtomicInteger();
            AtomicBoolean running = new AtomicBoolean(true);
            executor = Executors.newSingleThreadExecutor();
            // a worker's loop at the port level: lease, acknowledge, and on failure just try again
            Future<?> worker = executor.submit(() -> {
                while (running.get()) {
                    try {
                        List<Delivery> deliveries =
                                adapter.leases().lease(queue, alice, 10, Duration.ofMillis(200)).deliveries();
                        deliveries.forEach(d -> received.add(((Delivery.Leased) d).job().id().value()));
                        adapter.leases().acknowledge(queue, deliveries.stream().map(Delivery::id).toList());
                    } catch (TransportException e) {
                        failures.incrementAndGet();
                    }
                }
            });
            adapter.publisher().publish(job("before"));
            await().atMost(Duration.ofSeconds(10)).until(() -> received.contains("before"));

            server.restart();
            await().atMost(Duration.ofSeconds(30)).ignoreException(TransportException.class).until(() -> {
                adapter.publisher().publish(job("after"));
                return true;
            });

            await().atMost(Duration.ofSeconds(30)).until(() -> received.contains("after"));
            // the restart also emptied the script cache: scripts load again on NOSCRIPT
            adapter.publisher().publish(job("delayed").notBefore(NOW));
            assertThat(adapter.maintenance().promoteDue(queue, NOW, 10)).isEqualTo(1);
            await().atMost(Duration.ofSeconds(10)).until(() -> received.contains("delayed"));
            running.set(false);
            worker.get(10, TimeUnit.SECONDS);
            assertThat(adapter.administration().stats(queue).pending()).isZero();
        }
    }

    @Test
    void acknowledgementBeforeALeaseReloadsItsScriptWhenRedisForgotIt() {
        try (ThrowawayRedis server = ThrowawayRedis.start();
             RedisAdapter adapter = open(server.uri(), Duration.ofSeconds(2));
             RawRedis raw = new RawRedis(server.uri())) {
            adapter.leases().declare(queue);
            adapter.publisher().publish(job("a"));
            adapter.publisher().publish(job("b"));
            List<Delivery> first = adapter.leases().lease(queue, alice, 1, Duration.ofMillis(100)).deliveries();
            raw.commands().scriptFlush();

            AcknowledgedLease next = adapter.leases().acknowledgeAndLease(queue,
                    first.stream().map(Delivery::id).toList(), alice, 10);

            assertThat(next.acknowledgementFailure()).isEmpty();
            assertThat(Delivery.jobIdsOf(next.lease().deliveries())).containsExactly(JobId.of("b"));
            assertThat(adapter.administration().find(queue, JobId.of("a"))).as("acknowledged").isEmpty();
            assertThat(adapter.administration().stats(queue).pending()).isEqualTo(1);
        }
    }

    @Test
    void aPublishThatTimedOutDuringAnOutageIsNotSentWhenRedisIsBack() {
        try (ThrowawayRedis server = ThrowawayRedis.start();
             RedisAdapter adapter = open(server.uri(), Duration.ofMillis(500))) {
            adapter.leases().declare(queue);
            server.stop();

            assertThatThrownBy(() -> adapter.publisher().publish(job("during-outage")))
                    .isInstanceOf(TransportException.class).hasMessageContaining("publish");

            server.restart();
            await().atMost(Duration.ofSeconds(20)).until(adapter::isReachable);
            adapter.publisher().publish(job("after-outage"));
            List<String> leased = adapter.leases().lease(queue, alice, 10, Duration.ofMillis(100)).deliveries().stream()
                    .map(d -> ((Delivery.Leased) d).job().id().value()).toList();
            assertThat(leased).containsExactly("after-outage");
        }
    }

    @Test
    void aPublishWhoseReplyWasLostIsResentOnReconnectAndLandsTwice() throws Exception {
        try (ThrowawayRedis server = ThrowawayRedis.start();
             FaultyProxy proxy = new FaultyProxy(server.port());
             RedisAdapter adapter = open(proxy.uri(), Duration.ofSeconds(10));
             RawRedis raw = new RawRedis(server.uri())) {
            adapter.leases().declare(queue);
            proxy.swallowReplies(true);

            CompletableFuture<Void> publish =
                    CompletableFuture.runAsync(() -> adapter.publisher().publish(job("twice")));
            await().atMost(Duration.ofSeconds(5)).until(() -> raw.commands().xlen(RawRedis.stream(queue)) == 1);
            proxy.swallowReplies(false);
            proxy.dropConnections();

            // the producer sees one successful publish; Lettuce re-sent the XADD it had no reply for
            publish.get(15, TimeUnit.SECONDS);
            assertThat(raw.commands().xlen(RawRedis.stream(queue))).isEqualTo(2);
            List<Delivery> deliveries = adapter.leases().lease(queue, alice, 10, Duration.ofMillis(100)).deliveries();
            assertThat(deliveries).extracting(d -> ((Delivery.Leased) d).job().id().value())
                    .containsExactly("twice", "twice");
            assertThat(deliveries.get(0).id()).isNotEqualTo(deliveries.get(1).id());
        }
    }

    @Test
    void aBlockingReadHoldsUpNoOtherCommandAndOutlivesTheTimeout() throws Exception {
        try (ThrowawayRedis server = ThrowawayRedis.start();
             RedisAdapter adapter = open(server.uri(), Duration.ofSeconds(2));
             RawRedis raw = new RawRedis(server.uri())) {
            adapter.leases().declare(queue);
            CompletableFuture<List<Delivery>> blocked =
                    CompletableFuture.supplyAsync(
                            () -> adapter.leases().lease(queue, alice, 1, Duration.ofSeconds(5)).deliveries());
            await().atMost(Duration.ofSeconds(5)).until(() -> raw.commands().clientList().contains("cmd=xreadgroup"));

            // the adapter's other commands do not queue behind the blocked read
            assertThat(adapter.administration().stats(queue).length()).isZero();
            assertThat(blocked).isNotDone();

            // BLOCK longer than the command timeout: the read outlives the client's timeout (which would fail the
            // lease) and ends empty when Redis says so
            await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(4)).until(() -> !blocked.isDone());
            assertThat(blocked.get(10, TimeUnit.SECONDS)).isEmpty();
            assertThat(adapter.administration().stats(queue).pending()).isZero();
        }
    }

    @Test
    void aPasswordInTheUriIsUsedAndNeverShown() {
        try (ThrowawayRedis server = ThrowawayRedis.start("--requirepass", "s3cret-pw")) {
            String uri = "redis://:s3cret-pw@127.0.0.1:" + server.port();
            try (RedisAdapter adapter = open(uri, Duration.ofSeconds(2))) {
                adapter.publisher().publish(job("locked"));
                assertThat(adapter.administration().stats(queue).length()).isEqualTo(1);
                assertThat(adapter.isReachable()).isTrue();
            }

            String wrong = "redis://:wrong-pw@127.0.0.1:" + server.port();
            assertThatThrownBy(() -> open(wrong, Duration.ofSeconds(2)))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("redis://:****@127.0.0.1:" + server.port())
                    .hasMessageContaining("WRONGPASS")
                    .hasMessageNotContaining("wrong-pw");
            assertThat(RedisAdapter.Config.of(uri).toString()).doesNotContain("s3cret-pw").contains("****");
        }
    }

    @Test
    void isReachableFollowsTheServer() {
        try (ThrowawayRedis server = ThrowawayRedis.start();
             RedisAdapter adapter = open(server.uri(), Duration.ofSeconds(3))) {
            assertThat(adapter.isReachable()).isTrue();

            server.stop();
            await().atMost(Duration.ofSeconds(10)).until(() -> !adapter.isReachable());
            assertThatThrownBy(() -> adapter.administration().stats(queue)).isInstanceOf(TransportException.class)
                    .hasMessageContaining("stats").hasMessageContaining("orders");

            server.restart();
            await().atMost(Duration.ofSeconds(20)).until(adapter::isReachable);
        }
    }

    @Test
    void openingFailsClearlyWhenRedisIsNotThere() {
        int port;
        try (ThrowawayRedis server = ThrowawayRedis.start()) {
            port = server.port();
        }
        assertThatThrownBy(() -> open("redis://127.0.0.1:" + port, Duration.ofSeconds(3)))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("cannot connect to Redis at redis://127.0.0.1:" + port);
    }
}
