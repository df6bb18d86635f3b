package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.baton.adapters.postgres.testing.TestDatabase;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.OutcomeQuery;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * The error-text search with and without pg_trgm, each in a database of its own: Baton never installs the extension,
 * uses it wherever the operator installed it, and searches without it.
 */
class ErrorTextSearchTest {
    private static final String SCHEMA = "baton";
    private static final String TRIGRAM_INDEX = "job_outcomes_error_trgm_idx";

    @RegisterExtension
    static final TestDatabase WITHOUT_TRGM = new TestDatabase();
    @RegisterExtension
    static final TestDatabase WITH_TRGM = new TestDatabase();

    @Test
    void withoutPgTrgmTheSearchReadsTheRowsAndTheLogSaysHowToIndex() {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger runner = (Logger) LoggerFactory.getLogger(ScriptRunner.class);
        runner.addAppender(log);
        try (PostgresAdapter adapter = open(WITHOUT_TRGM)) {
            assertThat(indexDefinitions(WITHOUT_TRGM)).noneMatch(index -> index.contains(TRIGRAM_INDEX));
            assertThat(log.list).filteredOn(event -> event.getFormattedMessage().contains("pg_trgm")).singleElement()
                    .extracting(ILoggingEvent::getFormattedMessage).asString()
                    .contains("V6__outcome_search.sql: pg_trgm is not installed: error-text search reads the queue's"
                            + " rows. For a trigram index, install it (CREATE EXTENSION pg_trgm SCHEMA <s>), then"
                            + " CREATE INDEX " + TRIGRAM_INDEX + " ON " + SCHEMA + ".job_outcomes USING gin"
                            + " (error_message <s>.gin_trgm_ops)");
            assertSearchFindsByErrorText(WITHOUT_TRGM, adapter);
        } finally {
            runner.detachAppender(log);
        }
        // nothing written outside Baton's schema: no extension, nothing in public
        assertThat(rows(WITHOUT_TRGM, "SELECT extname FROM pg_extension")).containsExactly("plpgsql");
        assertThat(rows(WITHOUT_TRGM, "SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace"))
                .isEmpty();
    }

    @Test
    void withPgTrgmInAnySchemaTheSearchUsesATrigramIndex() {
        WITH_TRGM.jdbi().useHandle(handle -> handle.execute(
                "CREATE SCHEMA extensions; CREATE EXTENSION pg_trgm SCHEMA extensions"));

        try (PostgresAdapter adapter = open(WITH_TRGM)) {
            assertThat(indexDefinitions(WITH_TRGM)).contains("CREATE INDEX " + TRIGRAM_INDEX + " ON " + SCHEMA
                    + ".job_outcomes USING gin (error_message extensions.gin_trgm_ops)");
            assertSearchFindsByErrorText(WITH_TRGM, adapter);
            assertThat(planWithoutSequentialScans(WITH_TRGM, "SELECT job_id FROM " + SCHEMA + ".job_outcomes"
                    + " WHERE error_message ILIKE '%certificate%'"))
                    .as("the error filter can read the trigram index").contains(TRIGRAM_INDEX);
        }
    }

    private static PostgresAdapter open(TestDatabase database) {
        return PostgresAdapter.open(PostgresAdapter.Config.of(database.jdbcUrl()).withSchema(SCHEMA).withPoolSize(2),
                Clock.systemUTC());
    }

    private static void assertSearchFindsByErrorText(TestDatabase database, PostgresAdapter adapter) {
        database.jdbi().useHandle(handle -> handle.execute("INSERT INTO " + SCHEMA + ".job_outcomes (job_id, queue,"
                + " attempt, consumer, message_id, state, reason, error_type, error_message, dead_at, state_changed_at)"
                + " SELECT id, 'orders', 3, 'w1', '1-0', 'dead', 'EXHAUSTED', 'java.io.IOException', message, now(),"
                + " now() FROM (VALUES ('tls-1', 'TLS handshake: Certificate expired on shop.example'),"
                + " ('slow-1', 'read timed out after 3000 ms'), ('tls-2', 'certificate EXPIRED')) AS j (id, message)"));
        OutcomeQuery byError = new OutcomeQuery(QueueName.of("orders"), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of("certificate expired"), Optional.empty());

        assertThat(adapter.outcomes().search(byError, 10)).extracting(JobOutcome::key)
                .containsExactlyInAnyOrder("tls-1", "tls-2");
    }

    private static List<String> indexDefinitions(TestDatabase database) {
        return rows(database, "SELECT indexdef FROM pg_indexes WHERE schemaname = '" + SCHEMA + "'");
    }

    private static String planWithoutSequentialScans(TestDatabase database, String query) {
        return database.jdbi().inTransaction(handle -> {
            handle.execute("SET LOCAL enable_seqscan = off"); // a table of three rows is read whole otherwise
            return String.join("\n", handle.createQuery("EXPLAIN " + query).mapTo(String.class).list());
        });
    }

    private static List<String> rows(TestDatabase database, String query) {
        return database.jdbi().withHandle(handle -> handle.createQuery(query).mapTo(String.class).list());
    }
}
