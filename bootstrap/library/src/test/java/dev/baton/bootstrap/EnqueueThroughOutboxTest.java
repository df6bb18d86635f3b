package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.JobId;
import dev.baton.domain.OutboxBacklog;
import dev.baton.domain.QueueName;
import dev.baton.domain.Uniqueness;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** BATON_ENQUEUE_THROUGH_OUTBOX routes Java enqueues through the outbox; a relay takes them to Redis. */
class EnqueueThroughOutboxTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final QueueName queue = QueueName.of(TestEndpoints.unique("through").replace('_', '-'));
    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    private static BatonConfig config(String relay) {
        return ConfigLoader.load(Map.of("BATON_SCHEMA", TestEndpoints.unique("through"),
                "BATON_ENQUEUE_THROUGH_OUTBOX", "on", "BATON_RELAY", relay, "BATON_ADMIN_ADDRESS", "127.0.0.1:0"),
                Optional.empty(), Map.of());
    }

    private Baton baton(BatonConfig config) {
        return Baton.builder().config(config).set(REDIS_URI, TestEndpoints.redisUri())
                .set(JDBC_URL, TestEndpoints.jdbcUrl())
                .handler(queue.value(), context -> {
                    runs.computeIfAbsent(context.job().id().value(), key -> new AtomicInteger()).incrementAndGet();
                    return Optional.empty();
                }).build();
    }

    @Test
    void enqueuesWaitInTheOutboxUntilARelayPublishesThemAndRunOnce() throws Exception {
        try (Baton baton = baton(config("off"))) {
            InetSocketAddress admin = baton.startAdmin().orElseThrow();
            baton.enqueue(queue, JobId.of("one"), "{}");
            baton.enqueueAll(List.of(command("bulk-1"), command("bulk-2")));
            baton.enqueue(command("direct"), EnqueueRoute.DIRECT);

            assertThat(baton.outboxBacklog().map(OutboxBacklog::waiting)).contains(3L);
            assertThat(length(baton)).as("only the direct job is in Redis").isOne();
            assertThat(get(admin, "/api/queues")).contains("\"outbox\" : {", "\"waiting\" : 3");

            baton.relay();
            baton.start(queue.value());

            await().atMost(WAIT).until(() -> runs.size() == 4);
            assertThat(runs.values()).allSatisfy(count -> assertThat(count).hasValue(1));
            // a batch is marked published by the relay's next claim, which may come after its jobs ran
            await().atMost(WAIT).until(() -> baton.outboxBacklog().map(OutboxBacklog::waiting).orElseThrow() == 0);
            assertThat(get(admin, "/metrics")).contains("baton_outbox_published_total 3.0");
        }
    }

    @Test
    void aProducerRelaysItsOwnEnqueuesWithoutAWorker() {
        try (Baton baton = baton(config("on"))) {
            baton.enqueue(queue, JobId.of("fast"), "{}");

            await().atMost(WAIT).until(() -> length(baton) == 1);
        }
    }

    @Test
    void aUniqueJobIsRefusedBeforeAnyWriteAndGoesDirectlyWhenAsked() {
        try (Baton baton = baton(config("off"))) {
            Uniqueness key = Uniqueness.of("order-7");

            assertThatThrownBy(() -> baton.enqueueUnique(command("unique"), key))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("cannot be enqueued through the outbox")
                    .hasMessageContaining("EnqueueRoute.DIRECT");
            assertThat(baton.outboxBacklog().map(OutboxBacklog::waiting)).contains(0L);

            baton.enqueueUnique(command("unique"), key, EnqueueRoute.DIRECT);
            assertThat(length(baton)).isOne();
        }
    }

    private EnqueueJobUseCase.Command command(String id) {
        return EnqueueJobUseCase.Command.now(queue, JobId.of(id), "{}");
    }

    private long length(Baton baton) {
        return baton.use(InspectQueueUseCase.class).inspect(new InspectQueueUseCase.Command(queue)).stats().length();
    }

    private static String get(InetSocketAddress admin, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + admin.getPort() + path)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
