package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The SQL function {@code enqueue} and the Java checks behind the relay (the domain's values and the Redis stream
 * format) agree on a table of inputs: each is given to the function, and written as a row straight into the outbox
 * for the relay; what the function accepts, the relay publishes, and what it refuses, the relay dead-letters MALFORMED.
 */
class EnqueueFunctionAgreesWithRelayTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String EMOJI = "\uD83D\uDE00";

    private final String queue = TestEndpoints.unique("agree").replace('_', '-');
    private final BatonConfig config = BatonScenarioTest.threeQuickAttempts("agree");

    private List<Input> inputs() {
        return List.of(
                new Input("plain", queue, "id-1", null, "{}"),
                new Input("queue with . and _", queue + ".v_2", "id-1", null, "{}"),
                new Input("queue with a space", "bad queue!", "id-1", null, "{}"),
                new Input("queue starting with -", "-" + queue, "id-1", null, "{}"),
                new Input("queue of 101", "q".repeat(101), "id-1", null, "{}"),
                new Input("id of 256", queue, "j".repeat(256), null, "{}"),
                new Input("id of 257", queue, "j".repeat(257), null, "{}"),
                new Input("id of 128 emoji", queue, EMOJI.repeat(128), null, "{}"),
                new Input("id of 129 emoji", queue, EMOJI.repeat(129), null, "{}"),
                new Input("id with unassigned U+0378", queue, "id\u0378", null, "{}"),
                new Input("id with control U+0085", queue, "id\u0085", null, "{}"),
                new Input("id with private use U+E000", queue, "id\uE000", null, "{}"),
                new Input("id with unassigned U+E0080", queue, "id" + Character.toString(0xE0080), null, "{}"),
                new Input("type of 100 emoji", queue, "t-1", EMOJI.repeat(100), "{}"),
                new Input("type of 101 emoji", queue, "t-2", EMOJI.repeat(101), "{}"),
                new Input("type of ideographic spaces", queue, "t-3", "\u3000\u2003", "{}"),
                new Input("type of a no-break space", queue, "t-4", "\u00A0", "{}"),
                new Input("type with unassigned U+FFFF", queue, "t-5", "ship\uFFFF", "{}"),
                new Input("header payload", queue, "h-1", null, "{\"payload\": \"x\"}"),
                new Input("header dead_at", queue, "h-2", null, "{\"dead_at\": \"1\"}"),
                new Input("header unique_key", queue, "h-3", null, "{\"unique_key\": \"k\"}"),
                new Input("header traceparent", queue, "h-4", null,
                        "{\"traceparent\": \"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\"}"),
                new Input("headers partition_key, unique_for_ms, empty value", queue, "h-5", null,
                        "{\"partition_key\": \"p\", \"unique_for_ms\": \"5\", \"x\": \"\"}"),
                new Input("header named empty", queue, "h-6", null, "{\"\": \"v\"}"),
                new Input("header named with a space", queue, "h-7", null, "{\"a b\": \"v\"}"),
                new Input("header named with a newline", queue, "h-8", null, "{\"a\\nb\": \"v\"}"),
                new Input("header name of 128", queue, "h-9", null, "{\"" + "h".repeat(128) + "\": \"v\"}"),
                new Input("header name of 129", queue, "h-10", null, "{\"" + "h".repeat(129) + "\": \"v\"}"));
    }

    @Test
    void theRelayPublishesWhatTheFunctionTakesAndDeadLettersTheRest() throws SQLException {
        try (Baton baton = Baton.builder().config(config).set(REDIS_URI, TestEndpoints.redisUri())
                .set(JDBC_URL, TestEndpoints.jdbcUrl()).handler(queue, context -> Optional.empty()).build()) {
            baton.migrate();
            Map<String, Boolean> acceptedByTheFunction = new LinkedHashMap<>();
            Map<String, Long> rows = new LinkedHashMap<>();
            for (Input input : inputs()) {
                acceptedByTheFunction.put(input.label(), acceptedByTheFunction(input));
                rows.put(input.label(), insertedRaw(input));
            }
            assertThat(acceptedByTheFunction).containsValue(true).containsValue(false);

            baton.start(queue);
            await().atMost(WAIT).until(() -> !relayed(rows).containsValue(null));
            assertThat(relayed(rows)).isEqualTo(acceptedByTheFunction);
        }
    }

    private boolean acceptedByTheFunction(Input input) throws SQLException {
        try (Connection producer = DriverManager.getConnection(TestEndpoints.jdbcUrl())) {
            producer.setAutoCommit(false);
            try (PreparedStatement enqueue = producer.prepareStatement("SELECT " + config.get(SCHEMA)
                    + ".enqueue(?, ?, '{}', type => ?, headers => ?::jsonb)")) {
                bind(enqueue, input);
                enqueue.execute();
                return true;
            } catch (SQLException refused) {
                assertThat(refused.getSQLState()).as(input.label()).isEqualTo("22023");
                return false;
            } finally {
                producer.rollback();
            }
        }
    }

    /** The row as a client that bypasses the function would write it. @return its position */
    private long insertedRaw(Input input) throws SQLException {
        try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             PreparedStatement insert = connection.prepareStatement("INSERT INTO " + config.get(SCHEMA)
                     + ".job_outbox (queue, job_id, payload, type, headers) VALUES (?, ?, '{}', ?, ?::jsonb)"
                     + " RETURNING position")) {
            bind(insert, input);
            try (ResultSet row = insert.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private static void bind(PreparedStatement statement, Input input) throws SQLException {
        statement.setString(1, input.queue());
        statement.setString(2, input.jobId());
        statement.setString(3, input.type());
        statement.setString(4, input.headers());
    }

    private Map<String, Boolean> relayed(Map<String, Long> rows) throws SQLException {
        Map<String, Boolean> relayed = new LinkedHashMap<>();
        for (Map.Entry<String, Long> row : rows.entrySet()) {
            relayed.put(row.getKey(), relayed(row.getValue()));
        }
        return relayed;
    }

    /** True once the relay published the row (gone once its job ended), false once it refused it, else null. */
    private Boolean relayed(long position) throws SQLException {
        try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             PreparedStatement select = connection.prepareStatement("SELECT published_at IS NOT NULL,"
                     + " malformed IS NOT NULL FROM " + config.get(SCHEMA) + ".job_outbox WHERE position = ?")) {
            select.setLong(1, position);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return true;
                }
                return row.getBoolean(1) ? Boolean.TRUE : row.getBoolean(2) ? Boolean.FALSE : null;
            }
        }
    }

    private record Input(String label, String queue, String jobId, String type, String headers) {
    }
}
