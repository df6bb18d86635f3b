package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.adapters.postgres.PostgresAdapter.Config;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * An adapter opened while PostgreSQL is down ({@code requireServerAtOpen} false), on a private server (embedded, on a
 * port where nothing listened when the adapter opened) started afterwards: every ledger call fails at once saying why;
 * once the server answers, the schema is migrated and the same adapter works.
 */
class PostgresDownAtStartTest {
    /** Far less than the pool's connection timeout (5 s): failing fast must not mean waiting for a connection. */
    private static final Duration FAST = Duration.ofSeconds(2);
    private static final String SCHEMA = "baton_down_at_start";
    private final QueueName queue = QueueName.of("down-at-start");

    private Job job(String id) {
        return Job.create(JobId.of(id), queue, "{}", Instant.now());
    }

    private static ExecutionLedger.Execution execution(Job job) {
        return new ExecutionLedger.Execution(job, ConsumerName.of("alice"), new DeliveryId("1-0"), 1,
                Instant.now().plus(Duration.ofMinutes(1)));
    }

    @Test
    void callsFailAtOnceUntilPostgresAnswersThenUseTheMigratedSchema() throws IOException {
        int port = freePort();
        String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
        Config config = Config.of(url).withSchema(SCHEMA).withPoolSize(3).withRequireServerAtOpen(false);
        long opening = System.nanoTime();
        try (PostgresAdapter adapter = PostgresAdapter.open(config, Clock.systemUTC())) {
            assertThat(Duration.ofNanos(System.nanoTime() - opening)).isLessThan(FAST.multipliedBy(2));

            long calling = System.nanoTime();
            LedgerOutcome early = adapter.ledger().execute(execution(job("early")), transaction -> Optional.empty());
            assertThat(Duration.ofNanos(System.nanoTime() - calling)).isLessThan(FAST);
            assertThat(early).isInstanceOfSatisfying(LedgerOutcome.Unknown.class,
                    unknown -> assertThat(unknown.failure())
                            .hasMessageContaining("PostgreSQL at " + url + " is unreachable since ")
                            .hasMessageContaining("refused"));
            assertThatThrownBy(() -> adapter.outboxPublisher().publish(job("through-the-outbox")))
                    .isInstanceOf(LedgerUnavailableException.class).hasMessageContaining("is unreachable since");
            assertThatThrownBy(() -> adapter.outcomes().find(queue, "early"))
                    .isInstanceOf(LedgerUnavailableException.class);
            assertThat(adapter.isReachable()).isFalse();
            assertThat(adapter.whyUnreachable()).hasValueSatisfying(reason -> assertThat(reason)
                    .contains("PostgreSQL at " + url + " is unreachable since ").contains("refused"));

            try (EmbeddedPostgres server = EmbeddedPostgres.builder().setPort(port).start()) {
                await().atMost(Duration.ofSeconds(30)).until(adapter::isReachable);

                LedgerOutcome late = adapter.ledger().execute(execution(job("late")), transaction -> Optional.empty());
                assertThat(late).isInstanceOf(LedgerOutcome.Committed.class);
                adapter.outboxPublisher().publish(job("through-the-outbox"));
                int outboxRows = Jdbi.create(url).withHandle(handle -> handle.createQuery("SELECT count(*) FROM "
                        + SCHEMA + ".job_outbox").mapTo(int.class).one());
                assertThat(outboxRows).as("migrated before the first use").isEqualTo(1);
            }
        }
    }

    @Test
    void aPasswordNeverShowsWhilePostgresIsDown() {
        String url = "jdbc:postgresql://127.0.0.1:" + freePort() + "/postgres?user=postgres&password=s3cret-pw";
        try (PostgresAdapter adapter = PostgresAdapter.open(Config.of(url).withSchema(SCHEMA).withPoolSize(1)
                .withRequireServerAtOpen(false), Clock.systemUTC())) {
            assertThatThrownBy(() -> adapter.outcomes().find(queue, "any"))
                    .isInstanceOf(LedgerUnavailableException.class)
                    .hasMessageContaining("password=***")
                    .hasMessageNotContaining("s3cret-pw");
            assertThat(adapter.whyUnreachable()).hasValueSatisfying(reason -> assertThat(reason)
                    .contains("password=***").doesNotContain("s3cret-pw"));
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }
}
