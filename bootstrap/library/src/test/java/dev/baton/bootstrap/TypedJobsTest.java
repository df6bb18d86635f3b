package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.MIGRATIONS;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.examples.ShippingJobs;
import dev.baton.bootstrap.examples.ShippingJobs.ShipParcel;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.StatefulRedisConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Typed jobs on real Redis and PostgreSQL: records in, records out, the wire format of any other producer. */
class TypedJobsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final String schema = TestEndpoints.unique("typed");
    private final QueueName queue = QueueName.of(TestEndpoints.unique("typed").replace('_', '-'));
    private final List<ShipParcel> received = new CopyOnWriteArrayList<>();
    private final List<DeadLetter> deadLetters = new CopyOnWriteArrayList<>();
    private final Baton baton = Baton.builder()
            .config(BatonScenarioTest.threeQuickAttempts("typed").with(SCHEMA, schema))
            .set(REDIS_URI, TestEndpoints.redisUri())
            .set(JDBC_URL, TestEndpoints.jdbcUrl())
            .set(MIGRATIONS, List.of("classpath:db/shop"))
            .handler(ShippingJobs.SHIP_PARCEL, (parcel, context) -> {
                received.add(parcel);
                return Optional.empty();
            })
            .onDeadLetter(deadLetters::add)
            .build();
    private final RedisClient redis = RedisClient.create(TestEndpoints.redisUri());

    @AfterEach
    void close() {
        baton.close();
        redis.shutdown();
    }

    @Test
    void anEnqueuedRecordReachesTheHandlerEqualAndItsEffectCommits() throws Exception {
        try (Baton shop = ShippingJobs.handlers(Baton.builder()
                        .config(BatonScenarioTest.threeQuickAttempts("typed").with(SCHEMA, schema))
                        .set(REDIS_URI, TestEndpoints.redisUri()).set(JDBC_URL, TestEndpoints.jdbcUrl())
                        .set(MIGRATIONS, List.of("classpath:db/shop")))
                .build()) {
            ShippingJobs shipping = new ShippingJobs(shop, queue);
            shipping.ship(new ShipParcel("1001", 1200, false));
            shipping.ship(new ShipParcel("1002", 300, false));
            RunningWorker worker = startWorker(shop);

            await().atMost(WAIT).until(() -> worker.counters().completed() == 2);

            assertThat(shipments()).containsExactly("1001 parcel-1001 post", "1002 parcel-1002 courier");
            assertThat(shop.job(queue.value(), "parcel-1002")).isInstanceOfSatisfying(Whereabouts.Completed.class,
                    completed -> assertThat(completed.completion().result()).hasValue("shipped by courier"));
        }
    }

    @Test
    void theHandlerReceivesARecordEqualToTheEnqueuedOne() {
        ShipParcel parcel = new ShipParcel("2001", 750, true);
        baton.enqueue(ShippingJobs.SHIP_PARCEL, queue, JobId.of("parcel-2001"), parcel);
        RunningWorker worker = startWorker(baton);

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);

        assertThat(received).containsExactly(parcel);
    }

    @Test
    void onTheStreamATypedJobIsItsTypeAndItsRecordAsJson() {
        baton.enqueue(ShippingJobs.SHIP_PARCEL, queue, JobId.of("parcel-3001"), new ShipParcel("3001", 1200, false));

        List<StreamMessage<String, String>> entries = streamEntries();

        assertThat(entries).singleElement().satisfies(entry -> assertThat(entry.getBody())
                .containsEntry("type", "ship-parcel")
                .containsEntry("payload", "{\"orderId\":\"3001\",\"weightGrams\":1200,\"express\":false}")
                .containsEntry("job_id", "parcel-3001")
                .containsOnlyKeys("job_id", "type", "payload", "enqueued_at", "attempt"));
    }

    @Test
    void anEntryXaddedByAnotherLanguageBindsToTheRecord() {
        try (StatefulRedisConnection<String, String> connection = redis.connect()) {
            connection.sync().xadd(streamKey(), Map.of("job_id", "parcel-4001", "type", "ship-parcel",
                    "payload", "{\"express\": true, \"orderId\": \"4001\", \"weightGrams\": 80, \"note\": \"new\"}"));
        }
        RunningWorker worker = startWorker(baton);

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);

        assertThat(received).containsExactly(new ShipParcel("4001", 80, true));
    }

    @Test
    void aPayloadThatDoesNotBindIsDeadLetteredAtOnceNamingTheField() {
        enqueueRaw("bad-number", "{\"orderId\": \"5001\", \"weightGrams\": \"abc\", \"express\": false}");
        enqueueRaw("missing", "{\"orderId\": \"5002\", \"express\": false}");
        enqueueRaw("null-primitive", "{\"orderId\": \"5003\", \"weightGrams\": null, \"express\": false}");
        enqueueRaw("not-json", "ship it");
        RunningWorker worker = startWorker(baton);

        await().atMost(WAIT).until(() -> worker.counters().deadLettered() == 4);

        assertThat(received).isEmpty();
        assertThat(deadLetters).allSatisfy(letter -> {
            assertThat(letter.reason()).isEqualTo(DeadLetterReason.NON_RETRYABLE);
            assertThat(letter.attempts()).isEqualTo(1);
        });
        Map<String, String> messages = new HashMap<>();
        deadLetters.forEach(letter -> messages.put(letter.job().get().id().value(), letter.lastError().message()));
        assertThat(messages.get("bad-number"))
                .isEqualTo("payload does not bind to ShipParcel: field 'weightGrams': not a valid int ('abc')");
        assertThat(messages.get("missing"))
                .isEqualTo("payload does not bind to ShipParcel: field 'weightGrams': missing");
        assertThat(messages.get("null-primitive"))
                .isEqualTo("payload does not bind to ShipParcel: field 'weightGrams': null, but int cannot be null");
        assertThat(messages.get("not-json"))
                .isEqualTo("payload does not bind to ShipParcel: not JSON (Unrecognized token 'ship')");
        assertThat(messages.values()).allSatisfy(message -> assertThat(message).doesNotContain("\tat ", "\n"));
    }

    private void enqueueRaw(String id, String payload) {
        baton.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of(id), payload)
                .withType(ShippingJobs.SHIP_PARCEL.name()));
    }

    private RunningWorker startWorker(Baton on) {
        return on.start(new RunWorkerUseCase.Command(List.of(queue), Baton.defaultConsumer(), 2,
                Optional.of(ShippingJobs.SHIP_PARCEL.name())));
    }

    private String streamKey() {
        return "baton:{" + queue.value() + "}:stream";
    }

    private List<StreamMessage<String, String>> streamEntries() {
        try (StatefulRedisConnection<String, String> connection = redis.connect()) {
            return connection.sync().xrange(streamKey(), Range.create("-", "+"));
        }
    }

    private List<String> shipments() throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             ResultSet result = connection.createStatement().executeQuery("select order_id, job_id, carrier from "
                     + schema + ".shop_shipments order by order_id")) {
            while (result.next()) {
                rows.add(result.getString(1) + " " + result.getString(2) + " " + result.getString(3));
            }
        }
        return rows;
    }
}
